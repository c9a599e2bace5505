import { LockOutlined, MailOutlined, UserOutlined } from '@ant-design/icons';
import type { SignInProvider } from '@aiplatform/contracts';
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
  /** An LDAP provider's slug, or '' for the local account. */
  provider: string;
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

/**
 * Which password is checked: the local account's or a directory's (LDAP). A native select:
 * the sign-in page's first bundle stays small.
 */
function DirectoryField({ directories, localLabel }: { directories: SignInProvider[]; localLabel: string }) {
  const { t } = useTranslation();
  return (
    <Form.Item name="provider" label={t('auth:sso.directory')}>
      <select className="auth-select" data-testid="login-directory">
        {directories.map((d) => (
          <option key={d.slug} value={d.slug}>
            {d.name}
          </option>
        ))}
        <option value="">{localLabel}</option>
      </select>
    </Form.Item>
  );
}

/**
 * Standard mode, first tab: account (email, phone or username) and password, checked
 * locally or, when the organisation connected one, by its directory (the first directory
 * is preselected: most people of such an organisation have no local password).
 */
export function PasswordLoginForm({
  directories = [],
  localLabel,
}: {
  directories?: SignInProvider[];
  /** What the local choice is called (only administrators keep a local password in SSO-only mode). */
  localLabel?: string;
}) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const { submit, submitting } = useLoginSubmit();
  const account = usePrefilledAccount();
  return (
    <Form<PasswordValues>
      name="password-login"
      layout="vertical"
      requiredMark={false}
      initialValues={{ account, provider: directories[0]?.slug ?? '' }}
      onFinish={(v) =>
        submit(() =>
          call('login', {
            body: { account: v.account.trim(), password: v.password, ...(v.provider ? { provider: v.provider } : {}) },
          }),
        )
      }
    >
      {directories.length > 0 && (
        <DirectoryField directories={directories} localLabel={localLabel ?? t('auth:sso.localAccount')} />
      )}
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
