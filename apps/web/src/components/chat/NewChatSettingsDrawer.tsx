import type { ChatModel } from '@aiplatform/contracts';
import { Button, Drawer, Form, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useIsMobile } from '../layout/use-is-mobile';
import { KnowledgeBaseField } from '../documents/KnowledgeBaseSelect';
import { ConversationFormFields, type ConversationFormValues } from './ConversationFormFields';

interface NewChatSettingsDrawerProps {
  open: boolean;
  models: ChatModel[];
  /** The settings chosen so far, with the model the first message would go to. */
  values: ConversationFormValues;
  onClose: () => void;
  /** Keeps the settings for the first message (nothing is sent to the server yet). */
  onApply: (values: ConversationFormValues) => void;
}

/**
 * The new chat's settings, all optional: they are kept in the page and the conversation is
 * made with them when the first message is sent. The chat itself never waits for this form.
 */
export function NewChatSettingsDrawer({ open, models, values, onClose, onApply }: NewChatSettingsDrawerProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ConversationFormValues>();
  const isMobile = useIsMobile();

  return (
    <Drawer
      open={open}
      size={isMobile ? '100%' : 500}
      title={t('chat:form.newSettingsTitle')}
      onClose={onClose}
      destroyOnHidden
      data-testid="new-chat-settings"
      extra={
        <Space>
          <Button onClick={onClose} data-testid="new-chat-cancel">
            {t('chat:form.cancel')}
          </Button>
          <Button type="primary" onClick={() => form.submit()} data-testid="new-chat-apply">
            {t('chat:form.apply')}
          </Button>
        </Space>
      }
    >
      <p className="chat-form-hint">{t('chat:form.newSettingsHint')}</p>
      <Form<ConversationFormValues>
        form={form}
        name="new-chat-settings"
        layout="vertical"
        initialValues={values}
        onFinish={(chosen) => {
          onApply(chosen);
          onClose();
        }}
      >
        <ConversationFormFields testIdPrefix="new-chat" models={models} titleRequired={false} />
        <KnowledgeBaseField testId="new-chat-knowledge-bases" />
      </Form>
    </Drawer>
  );
}
