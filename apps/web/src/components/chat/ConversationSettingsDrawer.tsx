import type { ChatModel, Conversation } from '@aiplatform/contracts';
import { Button, Drawer, Form, Space, Switch } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { KnowledgeBaseField } from '../documents/KnowledgeBaseSelect';
import { ConversationFormFields, type ConversationFormValues } from './ConversationFormFields';

interface ConversationSettingsDrawerProps {
  conversation: Conversation | null;
  models: ChatModel[];
  onClose: () => void;
  /** Saves the changed fields; resolves true on success (the drawer then closes). */
  onSave: (conversation: Conversation, changes: Partial<ConversationFormValues>) => Promise<boolean>;
  /** Pinning applies at once, apart from the form. */
  onPin: (conversation: Conversation, pinned: boolean) => Promise<void>;
}

const FIELDS = ['model_name', 'title', 'system_prompt', 'context_length', 'ai_temperature', 'priority'] as const;

const sameIds = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && [...a].sort().every((id, i) => id === [...b].sort()[i]);

/** Only the fields the user changed go to the server. */
function changedFields(conversation: Conversation, values: ConversationFormValues): Partial<ConversationFormValues> {
  const changes: Partial<Record<keyof ConversationFormValues, unknown>> = {};
  for (const field of FIELDS) {
    const raw = values[field];
    const value = typeof raw === 'string' ? raw.trim() : raw;
    if (value !== conversation[field]) changes[field] = value;
  }
  const kbIds = values.knowledge_base_ids ?? [];
  if (!sameIds(kbIds, conversation.knowledge_base_ids ?? [])) changes.knowledge_base_ids = kbIds;
  return changes as Partial<ConversationFormValues>;
}

/** A 500-wide drawer; title and model required, plus the pin switch. */
export function ConversationSettingsDrawer({
  conversation,
  models,
  onClose,
  onSave,
  onPin,
}: ConversationSettingsDrawerProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ConversationFormValues>();
  const [saving, setSaving] = useState(false);
  const [pinning, setPinning] = useState(false);

  const finish = async (values: ConversationFormValues) => {
    if (!conversation) return;
    const changes = changedFields(conversation, values);
    if (Object.keys(changes).length === 0) {
      onClose();
      return;
    }
    setSaving(true);
    try {
      if (await onSave(conversation, changes)) onClose();
    } finally {
      setSaving(false);
    }
  };

  const pin = async (pinned: boolean) => {
    if (!conversation) return;
    setPinning(true);
    try {
      await onPin(conversation, pinned);
    } finally {
      setPinning(false);
    }
  };

  return (
    <Drawer
      open={conversation !== null}
      size={500}
      title={t('chat:form.settingsTitle')}
      onClose={onClose}
      destroyOnHidden
      data-testid="conversation-settings-drawer"
      extra={
        <Space>
          <Button onClick={onClose} data-testid="settings-cancel">
            {t('chat:form.cancel')}
          </Button>
          <Button type="primary" loading={saving} onClick={() => form.submit()} data-testid="settings-submit">
            {t('chat:form.save')}
          </Button>
        </Space>
      }
    >
      {conversation && (
        <Form<ConversationFormValues>
          key={conversation.id}
          form={form}
          name="conversation-settings"
          layout="vertical"
          initialValues={{
            model_name: conversation.model_name,
            title: conversation.title,
            system_prompt: conversation.system_prompt,
            context_length: conversation.context_length,
            ai_temperature: conversation.ai_temperature,
            priority: conversation.priority,
            knowledge_base_ids: conversation.knowledge_base_ids ?? [],
          }}
          onFinish={finish}
        >
          <Form.Item label={t('chat:form.pinned')}>
            <Switch
              checked={conversation.is_pinned}
              loading={pinning}
              onChange={(checked) => void pin(checked)}
              data-testid="settings-pinned"
            />
          </Form.Item>
          <ConversationFormFields testIdPrefix="settings" models={models} titleRequired />
          <KnowledgeBaseField testId="settings-knowledge-bases" />
        </Form>
      )}
    </Drawer>
  );
}
