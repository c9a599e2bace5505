import type { AdminModel, AiProvider } from '@aiplatform/contracts';
import { Checkbox, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { keyHint } from './model-format';
import { type ModelFormValues, keyNeededAgain } from './model-form-values';

interface ApiKeyFieldProps {
  model: AdminModel | null;
  removeKey: boolean;
  onRemoveKeyChange: (remove: boolean) => void;
}

/**
 * The API key, write-only: the stored key is never shown, only its hint. An empty field
 * keeps it; "remove the key" sends null. Once the provider or address points to another
 * server, the stored key is not sent there: the field then asks for the key again.
 */
export function ApiKeyField({ model, removeKey, onRemoveKeyChange }: ApiKeyFieldProps) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<ModelFormValues>();
  const provider: AiProvider = Form.useWatch('provider', form) ?? model?.provider ?? 'openai_compatible';
  const endpoint: string = Form.useWatch('api_endpoint', form) ?? model?.api_endpoint ?? '';
  const retype = !removeKey && keyNeededAgain(model, { provider, api_endpoint: endpoint });
  // '' when a key is stored but its hint is not shown: still a stored key.
  const stored = model ? keyHint(model) : null;
  const hint = stored === '' ? '…' : stored;
  const placeholder = removeKey
    ? t('catalog:models.form.keyWillBeRemoved')
    : hint && !retype
      ? t('catalog:models.form.keyKeep', { hint })
      : t('catalog:models.form.keyPlaceholder');
  const extra = retype
    ? t('catalog:models.form.keyOtherServerHint')
    : hint
      ? t('catalog:models.form.keyStoredHint', { hint })
      : t('catalog:models.form.keyNewHint');
  return (
    <>
      <Form.Item
        name="api_key"
        label={t('catalog:models.fields.apiKey')}
        extra={<span data-testid="model-form-api-key-hint">{extra}</span>}
        dependencies={['provider', 'api_endpoint']}
        rules={[
          { required: retype, whitespace: true, message: t('catalog:models.form.keyRequiredOtherServer') },
          { max: 1000, message: t('validation:apiKey.max') },
        ]}
        style={hint ? { marginBottom: 8 } : undefined}
      >
        <Input.Password
          autoComplete="new-password"
          placeholder={placeholder}
          disabled={removeKey}
          data-testid="model-form-api-key"
        />
      </Form.Item>
      {hint && (
        <Form.Item>
          <Checkbox
            checked={removeKey}
            onChange={(event) => {
              if (event.target.checked) form.setFieldValue('api_key', '');
              onRemoveKeyChange(event.target.checked);
            }}
            data-testid="model-form-remove-key"
          >
            {t('catalog:models.form.removeKey')}
          </Checkbox>
        </Form.Item>
      )}
    </>
  );
}
