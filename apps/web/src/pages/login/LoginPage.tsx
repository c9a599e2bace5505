import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePublicConfig } from '../../api/use-public-config';
import { AuthShell } from '../../components/common/AuthShell';
import { PageLoading } from '../../components/common/PageLoading';
import { CodeLoginForm, PasswordLoginForm, SecureLoginForm } from './LoginForms';
import { MethodTabs, type LoginMethod } from './MethodTabs';

/** The mode comes from the public configuration's `login.mode`. */
export function LoginPage() {
  const { t } = useTranslation();
  const { config, isLoading } = usePublicConfig();
  const [method, setMethod] = useState<LoginMethod>('password');

  let body;
  if (isLoading) body = <PageLoading />;
  else if (config.login.mode === 'standard')
    body = (
      <>
        <MethodTabs value={method} onChange={setMethod} />
        {/* Both stay mounted so a running code cooldown survives switching back and forth. */}
        <div id="login-panel-password" role="tabpanel" hidden={method !== 'password'}>
          <PasswordLoginForm />
        </div>
        <div id="login-panel-code" role="tabpanel" hidden={method !== 'code'}>
          <CodeLoginForm />
        </div>
      </>
    );
  else body = <SecureLoginForm />;

  return (
    <AuthShell title={t('auth:login.title')}>
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
