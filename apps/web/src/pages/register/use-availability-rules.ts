import type { FormRule } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/call';

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
          available = (await call('checkEmail', { body: { email: value.trim() }, silent: true })).available;
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
          available = (await call('checkUsername', { body: { username: value.trim() }, silent: true })).available;
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
