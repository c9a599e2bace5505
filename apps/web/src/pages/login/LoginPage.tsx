import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { usePublicConfig } from '../../api/use-public-config';
import { AuthShell } from '../../components/common/AuthShell';
import { PageLoading } from '../../components/common/PageLoading';
import { CodeLoginForm, PasswordLoginForm, SecureLoginForm } from './LoginForms';
import { MethodTabs, type LoginMethod } from './MethodTabs';
import { SsoButtons, SsoDivider, SsoErrorAlert } from './SsoButtons';
import { useSignInProviders } from './sign-in-providers';
import { ssoErrorCode } from './sso-addresses';

/**
 * The mode comes from the public configuration's `login.mode`; single sign-on providers
 * from `/auth/providers`. When local passwords are kept for super administrators only, the
 * providers come first and the password form is for the directory or the break-glass account.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const { config, isLoading } = usePublicConfig();
  const { redirects, directories, ready } = useSignInProviders();
  const [method, setMethod] = useState<LoginMethod>('password');
  const ssoError = ssoErrorCode(useLocation().search);
  const ssoFirst = config.login.local_password === 'super_admin_only';

  let body;
  if (isLoading || !ready) body = <PageLoading />;
  else if (ssoFirst)
    body = (
      <>
        <SsoButtons providers={redirects} />
        {redirects.length > 0 && <SsoDivider />}
        <PasswordLoginForm directories={directories} localLabel={t('auth:sso.adminAccount')} />
      </>
    );
  else if (config.login.mode === 'standard')
    body = (
      <>
        <MethodTabs value={method} onChange={setMethod} />
        {/* Both stay mounted so a running code cooldown survives switching back and forth. */}
        <div id="login-panel-password" role="tabpanel" hidden={method !== 'password'}>
          <PasswordLoginForm directories={directories} />
        </div>
        <div id="login-panel-code" role="tabpanel" hidden={method !== 'code'}>
          <CodeLoginForm />
        </div>
        {redirects.length > 0 && <SsoDivider />}
        <SsoButtons providers={redirects} />
      </>
    );
  else
    body = (
      <>
        <SecureLoginForm />
        {redirects.length > 0 && <SsoDivider />}
        <SsoButtons providers={redirects} />
      </>
    );

  return (
    <AuthShell title={t('auth:login.title')}>
      <SsoErrorAlert code={ssoError} />
      {body}
      {config.user.allow_register !== false && (
        <div className="auth-footer">
          {t('auth:login.noAccount')}{' '}
          <Link to="/register" data-testid="register-link">
            {t('auth:login.registerLink')}
          </Link>
        </div>
      )}
    </AuthShell>
  );
}
