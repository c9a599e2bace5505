import type { LoginResult } from '@aiplatform/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { toast } from '../../api/notify';
import { startSession } from '../../api/session';
import { afterSignInPath } from '../../components/common/redirect-target';
import { reportError } from '../../components/common/report-error';

/**
 * Runs one of the login calls: stores the session and opens the page that asked for the
 * sign-in (`?redirect=`) or the dashboard, or says why not.
 */
export function useLoginSubmit() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { search } = useLocation();
  const [submitting, setSubmitting] = useState(false);

  const submit = async (login: () => Promise<LoginResult>) => {
    setSubmitting(true);
    try {
      startSession(await login());
      toast('success', t('auth:login.success'));
      void navigate(afterSignInPath(search), { replace: true });
    } catch (error) {
      reportError(error, 'auth:login.failed');
    } finally {
      setSubmitting(false);
    }
  };
  return { submit, submitting };
}
