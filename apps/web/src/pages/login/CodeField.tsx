import { SafetyOutlined } from '@ant-design/icons';
import type { EmailCodePurpose } from '@aiplatform/contracts';
import { Button, Form, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { Input } from '../../components/common/auth-inputs';
import { useFormRules } from '../../components/common/form-rules';
import { useCodeSender } from './use-code-sender';

interface CodeFieldProps {
  form: FormInstance;
  /** Test ids of the input and the button; the two code forms keep them distinct. */
  testIds: { input: string; button: string };
  /** `register` on the sign-up form: a code for an address that has no account yet. */
  purpose?: EmailCodePurpose;
}

/** The 6-digit code input with its get-code button; the code goes to the form's `email`. */
export function CodeField({ form, testIds, purpose = 'login' }: CodeFieldProps) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const { send, sending, cooldown } = useCodeSender(purpose);
  return (
    <Form.Item label={t('auth:code.label')} required>
      <div className="code-row">
        <Form.Item name="code" rules={rules.code} noStyle>
          <Input
            prefix={<SafetyOutlined />}
            placeholder={t('auth:code.placeholder')}
            maxLength={6}
            inputMode="numeric"
            autoComplete="one-time-code"
            data-testid={testIds.input}
          />
        </Form.Item>
        <Button
          onClick={() => void send(form.getFieldValue('email'))}
          loading={sending}
          disabled={cooldown > 0}
          data-testid={testIds.button}
        >
          {cooldown > 0 ? t('auth:code.resendIn', { seconds: cooldown }) : t('auth:code.get')}
        </Button>
      </div>
    </Form.Item>
  );
}
