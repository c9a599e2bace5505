import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '../../api/api-error';
import { call } from '../../api/call';
import { startSession } from '../../api/session';
import { AuthShell } from '../../components/common/AuthShell';
import { PageLoading } from '../../components/common/PageLoading';
import { DEFAULT_AFTER_SIGN_IN, safeRedirectTarget } from '../../components/common/redirect-target';
import { ssoCompletion } from '../login/sso-addresses';
import { takeTabBinding } from '../login/sso-binding';

/**
 * `/sso/complete#code=…&redirect=…`: the last step of a sign-in through a provider. The
 * one-time code is traded for a session, then the page asked for opens; any failure goes
 * back to the sign-in page with its reason. The fragment never reaches a server log, and is
 * removed from the address at once so the code does not stay in the history.
 */
export default function SsoCompletePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const started = useRef(false);

  useEffect(() => {
    // Once: a development double render must not spend the single-use code twice.
    if (started.current) return;
    started.current = true;
    const { code, redirect } = ssoCompletion(window.location.hash);
    window.history.replaceState(window.history.state, '', window.location.pathname);
    const fail = (reason: string) => void navigate(`/login?sso_error=${reason}`, { replace: true });
    if (!code) return fail('SSO_STATE_INVALID');
    const binding = takeTabBinding();
    call('exchangeSsoCode', { body: { code, ...(binding ? { binding } : {}) }, silent: true }).then(
      (result) => {
        startSession(result);
        void navigate(safeRedirectTarget(redirect) ?? DEFAULT_AFTER_SIGN_IN, { replace: true });
      },
      (error: unknown) => fail(isApiError(error) && error.code ? error.code : 'SSO_TOKEN_INVALID'),
    );
  }, [navigate]);

  return (
    <AuthShell title={t('auth:sso.completing')}>
      <PageLoading />
    </AuthShell>
  );
}
