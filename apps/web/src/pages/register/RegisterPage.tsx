import { LockOutlined, MailOutlined, MobileOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Form } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { call } from '../../api/call';
import { toast } from '../../api/notify';
import { startSession } from '../../api/session';
import { usePublicConfig } from '../../api/use-public-config';
import { CodeField } from '../login/CodeField';
import { Input, PasswordInput } from '../../components/common/auth-inputs';
import { AuthShell } from '../../components/common/AuthShell';
import { PageLoading } from '../../components/common/PageLoading';
import { useFormRules } from '../../components/common/form-rules';
import { reportError } from '../../components/common/report-error';
import { loginPrefill, signsInRightAfterRegistering } from './after-register';
import { useAvailabilityRules } from './use-availability-rules';

interface RegisterValues {
  email: string;
  username: string;
  phone?: string;
  password: string;
  confirmPassword: string;
  code?: string;
}

const CHECK_DEBOUNCE_MS = 500;

/** Closed registration sends visitors back to /login. */
export function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const rules = useFormRules();
  const availability = useAvailabilityRules();
  const { config, isLoading } = usePublicConfig();
  const [submitting, setSubmitting] = useState(false);
  const [form] = Form.useForm<RegisterValues>();
  const closed = !isLoading && config.user.allow_register === false;

  useEffect(() => {
    if (!closed) return;
    toast('warning', t('auth:register.closed'), { key: 'registration-closed' });
    void navigate('/login', { replace: true });
  }, [closed, navigate, t]);

  /** The new account signed in, or false when the login mode (or the server) does not allow it now. */
  const signIn = async (account: string, password: string): Promise<boolean> => {
    if (!signsInRightAfterRegistering(config.login.mode)) return false;
    try {
      startSession(await call('login', { body: { account, password } }));
      return true;
    } catch {
      // Registered all the same: the login page, with the account filled in, says the rest.
      return false;
    }
  };

  const onFinish = async (v: RegisterValues) => {
    setSubmitting(true);
    const email = v.email.trim();
    try {
      await call('register', {
        body: {
          email,
          username: v.username.trim(),
          phone: v.phone?.trim() || null,
          password: v.password,
          confirmPassword: v.confirmPassword,
          ...(config.user.email_verification && v.code ? { code: v.code.trim() } : {}),
        },
      });
    } catch (error) {
      reportError(error, 'auth:register.failed');
      setSubmitting(false);
      return;
    }
    if (await signIn(email, v.password)) {
      toast('success', t('auth:register.signedIn'));
      void navigate('/dashboard', { replace: true });
    } else {
      toast('success', t('auth:register.success'));
      void navigate('/login', { replace: true, state: loginPrefill(email) });
    }
  };

  return (
    <AuthShell title={t('auth:register.title')}>
      {isLoading || closed ? (
        <PageLoading />
      ) : (
        <Form<RegisterValues> form={form} name="register" layout="vertical" requiredMark={false} onFinish={onFinish}>
          <Form.Item
            name="email"
            label={t('auth:register.email')}
            rules={[...rules.email, availability.email]}
            validateFirst
            validateDebounce={CHECK_DEBOUNCE_MS}
            hasFeedback
          >
            <Input
              prefix={<MailOutlined />}
              placeholder={t('auth:register.emailPlaceholder')}
              autoComplete="email"
              data-testid="register-email"
            />
          </Form.Item>
          <Form.Item
            name="username"
            label={t('auth:register.username')}
            extra={t('auth:register.usernameHint')}
            rules={[...rules.username, availability.username]}
            validateFirst
            validateDebounce={CHECK_DEBOUNCE_MS}
            hasFeedback
          >
            <Input
              prefix={<UserOutlined />}
              placeholder={t('auth:register.usernamePlaceholder')}
              autoComplete="username"
              data-testid="register-username"
            />
          </Form.Item>
          <Form.Item name="phone" label={t('auth:register.phone')} rules={rules.phone}>
            <Input
              prefix={<MobileOutlined />}
              placeholder={t('auth:register.phonePlaceholder')}
              autoComplete="tel"
              data-testid="register-phone"
            />
          </Form.Item>
          <Form.Item name="password" label={t('auth:register.password')} rules={rules.newPassword}>
            <PasswordInput
              prefix={<LockOutlined />}
              placeholder={t('auth:register.passwordPlaceholder')}
              autoComplete="new-password"
              data-testid="register-password"
            />
          </Form.Item>
          <Form.Item
            name="confirmPassword"
            label={t('auth:register.confirmPassword')}
            dependencies={['password']}
            rules={rules.confirm('password')}
          >
            <PasswordInput
              prefix={<LockOutlined />}
              placeholder={t('auth:register.confirmPasswordPlaceholder')}
              autoComplete="new-password"
              data-testid="register-confirm-password"
            />
          </Form.Item>
          {config.user.email_verification && (
            <CodeField
              form={form}
              purpose="register"
              testIds={{ input: 'register-code-input', button: 'register-get-code' }}
            />
          )}
          <Button type="primary" htmlType="submit" block loading={submitting} data-testid="register-submit">
            {t('auth:register.submit')}
          </Button>
        </Form>
      )}
      <div className="auth-footer">
        {t('auth:register.haveAccount')}{' '}
        <Link to="/login" data-testid="login-link">
          {t('auth:register.loginLink')}
        </Link>
      </div>
    </AuthShell>
  );
}
