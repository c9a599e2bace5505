import { z } from 'zod';
import { EMAIL_CODE_PATTERN, LIMITS, PHONE_PATTERN, USERNAME_PATTERN } from './limits.js';

/*
 * Field schemas carry i18n keys (namespace `validation`) as their messages; the server
 * translates them by Accept-Language and the web translates the same keys.
 */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const EmailSchema = z
  .string({ error: 'validation.email.required' })
  .trim()
  .toLowerCase()
  .min(1, 'validation.email.required')
  .max(LIMITS.emailMax, 'validation.email.invalid')
  .regex(EMAIL_PATTERN, 'validation.email.invalid');

export const UsernameSchema = z
  .string({ error: 'validation.username.required' })
  .trim()
  .min(1, 'validation.username.required')
  .min(LIMITS.usernameMin, 'validation.username.length')
  .max(LIMITS.usernameMax, 'validation.username.length')
  .regex(USERNAME_PATTERN, 'validation.username.pattern');

/** A mainland mobile number or null; an empty string means "not set". Omitted stays undefined. */
export const OptionalPhoneSchema = z
  .union([
    z.literal('').transform(() => null),
    z.null(),
    z.string().trim().regex(PHONE_PATTERN, 'validation.phone.invalid'),
  ])
  .optional();

/** Optional phone where leaving it out means "no phone" (registration). */
export const PhoneSchema = OptionalPhoneSchema.transform((v) => v ?? null);

export const PasswordSchema = z
  .string({ error: 'validation.password.required' })
  .min(1, 'validation.password.required')
  .min(LIMITS.passwordMin, 'validation.password.min')
  .max(LIMITS.passwordMax, 'validation.password.max');

/** A password given to sign in: only presence is checked, never the policy. */
export const LoginPasswordSchema = z
  .string({ error: 'validation.password.required' })
  .min(1, 'validation.password.required')
  .max(LIMITS.passwordMax, 'validation.password.max');

export const EmailCodeSchema = z
  .string({ error: 'validation.code.required' })
  .trim()
  .min(1, 'validation.code.required')
  .regex(EMAIL_CODE_PATTERN, 'validation.code.pattern');

/**
 * A list's `limit`: a whole number from 1; above `max` it is clamped to `max` rather than
 * refused, so a client asking for "everything" still gets a full page.
 */
export function clampedLimit(max: number, fallback: number) {
  return z.coerce
    .number()
    .int()
    .min(1)
    .transform((n) => Math.min(n, max))
    .default(fallback);
}

export const PageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: clampedLimit(LIMITS.creditHistoryMaxLimit, LIMITS.creditHistoryDefaultLimit),
});
