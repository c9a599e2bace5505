import type { ChatModel } from '@aiplatform/contracts';
import { LIMITS } from '@aiplatform/contracts';
import { PictureOutlined } from '@ant-design/icons';
import { Form, Input, InputNumber, Select, Slider } from 'antd';
import { useTranslation } from 'react-i18next';

/** The editable fields of a conversation, shared by the create modal and the settings drawer. */
export interface ConversationFormValues {
  model_name: string;
  title: string;
  system_prompt: string;
  context_length: number;
  /** Left unset in the create form until touched: the server then applies the configured default. */
  ai_temperature: number | undefined;
  priority: number;
  /** The knowledge bases searched on every turn (the settings drawer only). */
  knowledge_base_ids?: number[];
}

interface ConversationFormFieldsProps {
  /** Prefix of every field's data-testid (`new-conv`, `settings`). */
  testIdPrefix: string;
  models: ChatModel[];
  titleRequired: boolean;
}

/** Model (active ones only), title, system prompt, context length, temperature and priority. */
export function ConversationFormFields({ testIdPrefix, models, titleRequired }: ConversationFormFieldsProps) {
  const { t } = useTranslation();
  const temperature = Form.useWatch<number | undefined>('ai_temperature', Form.useFormInstance());
  const id = (name: string) => `${testIdPrefix}-${name}`;
  const modelOptions = models.map((model) => ({
    value: model.name,
    label: (
      <span data-testid={id(`model-option-${model.name}`)}>
        {model.display_name} {model.image_upload_enabled && <PictureOutlined />}
      </span>
    ),
  }));

  return (
    <>
      <Form.Item
        name="model_name"
        label={t('chat:form.model')}
        rules={[{ required: true, message: t('validation:model.required') }]}
      >
        <Select
          options={modelOptions}
          placeholder={t('chat:form.modelPlaceholder')}
          notFoundContent={t('chat:form.noModels')}
          data-testid={id('model')}
        />
      </Form.Item>
      <Form.Item
        name="title"
        label={t('chat:form.title')}
        rules={[
          { required: titleRequired, whitespace: true, message: t('validation:title.required') },
          { max: LIMITS.conversationTitleMax, message: t('validation:title.max') },
        ]}
      >
        <Input
          placeholder={titleRequired ? undefined : t('chat:form.titlePlaceholder')}
          maxLength={LIMITS.conversationTitleMax}
          data-testid={id('title')}
        />
      </Form.Item>
      <Form.Item name="system_prompt" label={t('chat:form.systemPrompt')}>
        <Input.TextArea
          autoSize={{ minRows: 2, maxRows: 6 }}
          maxLength={LIMITS.systemPromptMax}
          placeholder={t('chat:form.systemPromptPlaceholder')}
          data-testid={id('system-prompt')}
        />
      </Form.Item>
      <Form.Item
        name="context_length"
        label={t('chat:form.contextLength')}
        extra={t('chat:form.contextLengthHelp')}
        rules={[
          {
            required: true,
            type: 'integer',
            min: 0,
            max: LIMITS.contextLengthFormMax,
            message: t('chat:form.contextLengthRange'),
          },
        ]}
      >
        <InputNumber min={0} max={LIMITS.contextLengthFormMax} precision={0} data-testid={id('context-length')} />
      </Form.Item>
      <Form.Item
        name="ai_temperature"
        label={t('chat:form.temperature')}
        extra={temperature === undefined ? t('chat:form.temperatureDefault') : undefined}
      >
        <Slider
          min={0}
          max={1}
          step={0.1}
          marks={{ 0: t('chat:form.precise'), 0.5: t('chat:form.balanced'), 1: t('chat:form.creative') }}
          className="chat-temperature"
          // The handle is the slider's input: it carries the field's name.
          ariaLabelForHandle={t('chat:form.temperature')}
          data-testid={id('temperature')}
        />
      </Form.Item>
      <Form.Item
        name="priority"
        label={t('chat:form.priority')}
        extra={t('chat:form.priorityHelp')}
        rules={[
          { required: true, type: 'integer', min: 0, max: LIMITS.priorityMax, message: t('validation:priority.range') },
        ]}
      >
        <InputNumber min={0} max={LIMITS.priorityMax} precision={0} data-testid={id('priority')} />
      </Form.Item>
    </>
  );
}
