import { LockOutlined, MailOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { call } from '../../api/call';
import { Input, PasswordInput } from '../../components/common/auth-inputs';
import { useFormRules } from '../../components/common/form-rules';
import { prefilledAccount } from '../register/after-register';
import { CodeField } from './CodeField';
import { useLoginSubmit } from './use-login-submit';

interface PasswordValues {
  account: string;
  password: string;
}
interface CodeValues {
  email: string;
  code: string;
}
type SecureValues = CodeValues & { password: string };

/** The account just registered, when the registration page sent the visitor here. */
function usePrefilledAccount(): string | undefined {
  return prefilledAccount(useLocation().state) || undefined;
}

function Hint({ text }: { text: string }) {
  return <p className="auth-hint">{text}</p>;
}

/** Standard mode, first tab: account (email, phone or username) and password. */
export function PasswordLoginForm() {
  const { t } = useTranslation();
  const rules = useFormRules();
  const { submit, submitting } = useLoginSubmit();
  const account = usePrefilledAccount();
  return (
    <Form<PasswordValues>
      name="password-login"
      layout="vertical"
      requiredMark={false}
      initialValues={{ account }}
      onFinish={(v) => submit(() => call('login', { body: { account: v.account.trim(), password: v.password } }))}
    >
      <Form.Item name="account" label={t('auth:login.account')} rules={rules.account}>
        <Input
          prefix={<UserOutlined />}
          placeholder={t('auth:login.accountPlaceholder')}
          autoComplete="username"
          data-testid="login-account"
        />
      </Form.Item>
      <Form.Item name="password" label={t('auth:login.password')} rules={rules.loginPassword}>
        <PasswordInput
          prefix={<LockOutlined />}
          placeholder={t('auth:login.passwordPlaceholder')}
          autoComplete="current-password"
          data-testid="login-password"
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={submitting} data-testid="login-submit">
        {t('auth:login.submit')}
      </Button>
      <Hint text={t('auth:login.passwordHint')} />
    </Form>
  );
}

/** Standard mode, second tab: email and a 6-digit code sent to it. */
export function CodeLoginForm() {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<CodeValues>();
  const { submit, submitting } = useLoginSubmit();
  const email = usePrefilledAccount();
  return (
    <Form<CodeValues>
      name="code-login"
      form={form}
      layout="vertical"
      requiredMark={false}
      initialValues={{ email }}
      onFinish={(v) => submit(() => call('loginByCode', { body: { email: v.email.trim(), code: v.code.trim() } }))}
    >
      <Form.Item name="email" label={t('auth:login.email')} rules={rules.email}>
        <Input
          prefix={<MailOutlined />}
          placeholder={t('auth:login.emailPlaceholder')}
          autoComplete="email"
          data-testid="login-code-email"
        />
      </Form.Item>
      <CodeField form={form} testIds={{ input: 'login-code-input', button: 'login-get-code' }} />
      <Button type="primary" htmlType="submit" block loading={submitting} data-testid="login-code-submit">
        {t('auth:login.submit')}
      </Button>
      <Hint text={t('auth:login.codeHint')} />
    </Form>
  );
}

/** High-security mode: email, password and code together (triple verification). */
export function SecureLoginForm() {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<SecureValues>();
  const { submit, submitting } = useLoginSubmit();
  const email = usePrefilledAccount();
  return (
    <Form<SecureValues>
      name="secure-login"
      form={form}
      layout="vertical"
      requiredMark={false}
      initialValues={{ email }}
      onFinish={(v) =>
        submit(() =>
          call('loginByEmailPassword', { body: { email: v.email.trim(), password: v.password, code: v.code.trim() } }),
        )
      }
    >
      <Form.Item name="email" label={t('auth:login.email')} rules={rules.email}>
        <Input
          prefix={<MailOutlined />}
          placeholder={t('auth:login.emailPlaceholder')}
          autoComplete="username"
          data-testid="login-secure-email"
        />
      </Form.Item>
      <Form.Item name="password" label={t('auth:login.password')} rules={rules.loginPassword}>
        <PasswordInput
          prefix={<LockOutlined />}
          placeholder={t('auth:login.passwordPlaceholder')}
          autoComplete="current-password"
          data-testid="login-secure-password"
        />
      </Form.Item>
      <CodeField form={form} testIds={{ input: 'login-secure-code-input', button: 'login-secure-get-code' }} />
      <Button type="primary" htmlType="submit" block loading={submitting} data-testid="login-secure-submit">
        {t('auth:login.submit')}
      </Button>
      <Hint text={t('auth:login.secureHint')} />
    </Form>
  );
}
