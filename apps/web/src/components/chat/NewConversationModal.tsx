import type { ChatModel } from '@aiplatform/contracts';
import { LIMITS } from '@aiplatform/contracts';
import { Button, Form, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConversationFormFields, type ConversationFormValues } from './ConversationFormFields';

interface NewConversationModalProps {
  open: boolean;
  models: ChatModel[];
  defaultModel: string | undefined;
  /** The system's default temperature (settings `ai.temperature`). */
  defaultTemperature: number;
  onCancel: () => void;
  /** Resolves true when the conversation was created (the modal then closes). */
  onSubmit: (values: ConversationFormValues) => Promise<boolean>;
}

/** A 600-wide form where only the model is required. */
export function NewConversationModal(props: NewConversationModalProps) {
  const { open, models, defaultModel, defaultTemperature, onCancel, onSubmit } = props;
  const { t } = useTranslation();
  const [form] = Form.useForm<ConversationFormValues>();
  const [saving, setSaving] = useState(false);

  const initialValues: ConversationFormValues = {
    model_name: defaultModel ?? '',
    title: '',
    system_prompt: '',
    context_length: LIMITS.contextLengthDefault,
    ai_temperature: defaultTemperature,
    priority: 0,
  };

  const finish = async (values: ConversationFormValues) => {
    setSaving(true);
    try {
      if (await onSubmit(values)) form.resetFields();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      width={600}
      title={t('chat:form.newTitle')}
      onCancel={onCancel}
      destroyOnHidden
      data-testid="new-conversation-modal"
      footer={[
        <Button key="cancel" onClick={onCancel} data-testid="new-conv-cancel">
          {t('chat:form.cancel')}
        </Button>,
        <Button
          key="submit"
          type="primary"
          loading={saving}
          onClick={() => form.submit()}
          data-testid="new-conv-submit"
        >
          {t('chat:form.create')}
        </Button>,
      ]}
    >
      <Form<ConversationFormValues>
        form={form}
        name="new-conversation"
        layout="vertical"
        initialValues={initialValues}
        onFinish={finish}
      >
        <ConversationFormFields testIdPrefix="new-conv" models={models} titleRequired={false} />
      </Form>
    </Modal>
  );
}
