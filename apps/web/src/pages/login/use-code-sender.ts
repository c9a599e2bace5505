import { type EmailCodePurpose, LIMITS } from '@aiplatform/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sendEmailCode } from '../../api/auth';
import { toast } from '../../api/notify';
import { EMAIL_PATTERN } from '../../components/common/form-rules';
import { reportError } from '../../components/common/report-error';

/** Sends a sign-in (or sign-up) code and runs the 60-second resend cooldown. */
export function useCodeSender(purpose: EmailCodePurpose = 'login') {
  const { t } = useTranslation();
  const [cooldown, setCooldown] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (cooldown <= 0) return;
    const timer = window.setTimeout(() => setCooldown((s) => s - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [cooldown]);

  const send = async (email: unknown) => {
    const value = typeof email === 'string' ? email.trim() : '';
    if (!value) return toast('warning', t('auth:code.enterEmailFirst'));
    if (!EMAIL_PATTERN.test(value)) return toast('warning', t('auth:code.invalidEmail'));
    setSending(true);
    try {
      await sendEmailCode(value, purpose);
      toast('success', t('auth:code.sent'));
      setCooldown(LIMITS.emailCodeResendSeconds);
    } catch (error) {
      reportError(error, 'auth:code.sendFailed');
    } finally {
      setSending(false);
    }
  };

  return { send, sending, cooldown };
}
