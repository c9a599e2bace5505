import type { AdminModel } from '@aiplatform/contracts';
import { Checkbox, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { keyHint } from './model-format';

interface ApiKeyFieldProps {
  model: AdminModel | null;
  removeKey: boolean;
  onRemoveKeyChange: (remove: boolean) => void;
}

/**
 * The API key, write-only: the stored key is never shown, only its hint. An empty field
 * keeps it; "remove the key" sends null.
 */
export function ApiKeyField({ model, removeKey, onRemoveKeyChange }: ApiKeyFieldProps) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  // '' when a key is stored but its hint is not shown: still a stored key.
  const stored = model ? keyHint(model) : null;
  const hint = stored === '' ? '…' : stored;
  const placeholder = removeKey
    ? t('catalog:models.form.keyWillBeRemoved')
    : hint
      ? t('catalog:models.form.keyKeep', { hint })
      : t('catalog:models.form.keyPlaceholder');
  return (
    <>
      <Form.Item
        name="api_key"
        label={t('catalog:models.fields.apiKey')}
        extra={hint ? t('catalog:models.form.keyStoredHint', { hint }) : t('catalog:models.form.keyNewHint')}
        rules={[{ max: 1000, message: t('validation:apiKey.max') }]}
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
