import type { FormRule } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { authApi } from '../../api/auth';

/**
 * Asynchronous "is it free?" rules for registration. They run after the field's own
 * rules pass (validateFirst) and debounced by the form item, so typing stays cheap.
 */
export function useAvailabilityRules() {
  const { t } = useTranslation();
  return useMemo(() => {
    const email: FormRule = {
      validator: async (_rule, value: unknown) => {
        if (typeof value !== 'string' || !value.trim()) return;
        let available = true;
        try {
          available = (await authApi.checkEmail(value.trim())).available;
        } catch {
          // Unknown is not "taken": the server checks again when the form is sent.
          return;
        }
        if (!available) throw new Error(t('auth:register.emailExists'));
      },
    };
    const username: FormRule = {
      validator: async (_rule, value: unknown) => {
        if (typeof value !== 'string' || !value.trim()) return;
        let available: boolean;
        try {
          available = (await authApi.checkUsername(value.trim())).available;
        } catch {
          // A failed username check counts as unavailable.
          throw new Error(t('auth:register.usernameCheckFailed'));
        }
        if (!available) throw new Error(t('auth:register.usernameExists'));
      },
    };
    return { email, username };
  }, [t]);
}
