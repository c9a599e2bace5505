import { EMAIL_CODE_PATTERN, LIMITS, PHONE_PATTERN, USERNAME_PATTERN } from '@aiplatform/contracts';
import type { FormRule } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** The same email shape the server's schema accepts. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Form rules mirroring the contracts' field schemas, with the same message
 * keys, so the client says exactly what the server would.
 */
export function useFormRules() {
  const { t } = useTranslation();
  return useMemo(() => {
    const required = (key: string): FormRule => ({ required: true, whitespace: true, message: t(key) });
    return {
      account: [required('validation:account.required')],
      loginPassword: [{ required: true, message: t('validation:password.required') }],
      email: [
        required('validation:email.required'),
        { pattern: EMAIL_PATTERN, message: t('validation:email.invalid') },
      ],
      code: [
        required('validation:code.required'),
        { pattern: EMAIL_CODE_PATTERN, message: t('validation:code.pattern') },
      ],
      username: [
        required('validation:username.required'),
        { min: LIMITS.usernameMin, max: LIMITS.usernameMax, message: t('validation:username.length') },
        { pattern: USERNAME_PATTERN, message: t('validation:username.pattern') },
      ],
      phone: [{ pattern: PHONE_PATTERN, message: t('validation:phone.invalid') }],
      newPassword: [
        { required: true, message: t('validation:password.required') },
        { min: LIMITS.passwordMin, message: t('validation:password.min') },
        { max: LIMITS.passwordMax, message: t('validation:password.max') },
      ],
      /** Confirmation of the field named `passwordField`. */
      confirm: (passwordField: string): FormRule[] => [
        { required: true, message: t('validation:confirmPassword.required') },
        ({ getFieldValue }) => ({
          validator: async (_rule, value: unknown) => {
            if (value && value !== getFieldValue(passwordField))
              throw new Error(t('validation:confirmPassword.mismatch'));
          },
        }),
      ],
    };
  }, [t]);
}
