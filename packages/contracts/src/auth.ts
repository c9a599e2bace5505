import { z } from 'zod';
import {
  EmailCodeSchema,
  EmailSchema,
  LoginPasswordSchema,
  OptionalPhoneSchema,
  PasswordSchema,
  PhoneSchema,
  UsernameSchema,
} from './fields.js';
import { LIMITS } from './limits.js';
import { ROLES } from './permissions.js';
import { SessionAbilitiesSchema } from './admin/abilities.js';
import { PROVIDER_SLUG_PATTERN } from './identity.js';

export const LoginBodySchema = z.object({
  account: z
    .string({ error: 'validation.account.required' })
    .trim()
    .min(1, 'validation.account.required')
    .max(LIMITS.emailMax, 'validation.account.required'),
  password: LoginPasswordSchema,
  /** The slug of an LDAP provider: the account and password are checked by that directory. */
  provider: z
    .string({ error: 'validation.identityProvider.slug' })
    .trim()
    .max(64, 'validation.identityProvider.slug')
    .regex(PROVIDER_SLUG_PATTERN, 'validation.identityProvider.slug')
    .optional(),
});
export type LoginBody = z.infer<typeof LoginBodySchema>;

export const LoginByCodeBodySchema = z.object({ email: EmailSchema, code: EmailCodeSchema });
export type LoginByCodeBody = z.infer<typeof LoginByCodeBodySchema>;

export const LoginByEmailPasswordBodySchema = z.object({
  email: EmailSchema,
  password: LoginPasswordSchema,
  code: EmailCodeSchema,
});
export type LoginByEmailPasswordBody = z.infer<typeof LoginByEmailPasswordBodySchema>;

/** `register`: a code for signing up with an address not yet registered (when sign-up requires one). */
export const EMAIL_CODE_PURPOSES = ['login', 'register'] as const;
export type EmailCodePurpose = (typeof EMAIL_CODE_PURPOSES)[number];
export const SendEmailCodeBodySchema = z.object({
  email: EmailSchema,
  purpose: z.enum(EMAIL_CODE_PURPOSES).optional(),
});

export const RegisterBodySchema = z
  .object({
    email: EmailSchema,
    username: UsernameSchema,
    phone: PhoneSchema,
    password: PasswordSchema,
    confirmPassword: z
      .string({ error: 'validation.confirmPassword.required' })
      .min(1, 'validation.confirmPassword.required')
      .max(LIMITS.passwordMax, 'validation.password.max'),
    /** The emailed code; required while the settings ask for email verification at sign-up. */
    code: EmailCodeSchema.optional(),
  })
  .refine((b) => b.password === b.confirmPassword, {
    path: ['confirmPassword'],
    message: 'validation.confirmPassword.mismatch',
  });
export type RegisterBody = z.infer<typeof RegisterBodySchema>;

/** The new account: its id and the names it signs in with. */
export const RegisterResultSchema = z.object({ id: z.number(), username: z.string(), email: z.string() });
export type RegisterResult = z.infer<typeof RegisterResultSchema>;

export const CheckEmailBodySchema = z.object({ email: EmailSchema });
export const CheckUsernameBodySchema = z.object({ username: UsernameSchema });
export const AvailabilitySchema = z.object({ available: z.boolean() });

/** `phone` left out keeps the stored number; null or '' clears it. */
export const UpdateProfileBodySchema = z.object({
  username: UsernameSchema,
  phone: OptionalPhoneSchema,
});
export type UpdateProfileBody = z.infer<typeof UpdateProfileBodySchema>;

export const ChangePasswordBodySchema = z
  .object({
    oldPassword: LoginPasswordSchema,
    newPassword: PasswordSchema,
    confirmPassword: z.string().max(LIMITS.passwordMax).optional(),
  })
  .refine((b) => b.confirmPassword === undefined || b.confirmPassword === b.newPassword, {
    path: ['confirmPassword'],
    message: 'validation.confirmPassword.mismatch',
  });
export type ChangePasswordBody = z.infer<typeof ChangePasswordBodySchema>;

export const RefreshBodySchema = z.object({
  refreshToken: z.string({ error: 'validation.refreshToken.required' }).min(1).max(512),
});

/**
 * Logout also takes the refresh token, so a session ends even when its access token has
 * expired; the body may be left out altogether.
 */
export const LogoutBodySchema = z.object({ refreshToken: z.string().max(512).optional() }).nullish();

export const CreditsStatsSchema = z.object({
  quota: z.number(),
  used: z.number(),
  remaining: z.number(),
  usageRate: z.number(),
  isExpired: z.boolean(),
  expireAt: z.string().nullable(),
  remainingDays: z.number().nullable(),
});
export type CreditsStats = z.infer<typeof CreditsStatsSchema>;

export const UserStatusSchema = z.enum(['active', 'inactive']);

export const UserSchema = z.object({
  id: z.number(),
  username: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  role: z.enum(ROLES),
  status: UserStatusSchema,
  group_id: z.number().nullable(),
  group_name: z.string().nullable(),
  group_color: z.string().nullable(),
  avatar_url: z.string().nullable(),
  created_at: z.string(),
  last_login_at: z.string().nullable(),
  token_quota: z.number(),
  token_used: z.number(),
  credits_stats: CreditsStatsSchema,
});
export type User = z.infer<typeof UserSchema>;

export const SiteConfigSchema = z.object({
  name: z.string(),
  logo: z.string(),
  description: z.string(),
  favicon: z.string(),
  is_group_config: z.boolean(),
});
export type SiteConfig = z.infer<typeof SiteConfigSchema>;

export const SessionDataSchema = z.object({
  user: UserSchema,
  permissions: z.array(z.string()),
  siteConfig: SiteConfigSchema,
  /** The pages and page-level actions the user may use, as the server's policy decides. */
  abilities: SessionAbilitiesSchema,
});
export type SessionData = z.infer<typeof SessionDataSchema>;

export const LoginResultSchema = SessionDataSchema.extend({
  accessToken: z.string(),
  refreshToken: z.string(),
  expiresIn: z.string(),
});
export type LoginResult = z.infer<typeof LoginResultSchema>;

export const RefreshResultSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  expiresIn: z.string(),
});
export type RefreshResult = z.infer<typeof RefreshResultSchema>;

export const TRANSACTION_TYPES = [
  'admin_add',
  'admin_deduct',
  'admin_set',
  'chat_consume',
  'system_refund',
  'system_reward',
  'group_distribute',
  'group_reclaim',
  'embedding',
] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

export const CreditHistoryEntrySchema = z.object({
  id: z.number(),
  created_at: z.string(),
  transaction_type: z.enum(TRANSACTION_TYPES),
  amount: z.number(),
  balance_after: z.number(),
  description: z.string(),
  /** Chat charges and refunds: the conversation (its current title; null once deleted) and model. */
  conversation_id: z.string().nullable(),
  conversation_title: z.string().nullable(),
  model_name: z.string().nullable(),
  /** The model's current display name (read at answer time, so a rename shows); its id once deleted. */
  model_display_name: z.string().nullable(),
});
export type CreditHistoryEntry = z.infer<typeof CreditHistoryEntrySchema>;

export const CreditHistoryResultSchema = z.object({
  history: z.array(CreditHistoryEntrySchema),
  pagination: z.object({ page: z.number(), limit: z.number(), total: z.number() }),
});
export type CreditHistoryResult = z.infer<typeof CreditHistoryResultSchema>;

/** Claims of the access JWT. `sid` names the session (refresh-token family). */
export interface AccessTokenClaims {
  userId: number;
  email: string;
  role: (typeof ROLES)[number];
  sid: string;
  jti: string;
  iat: number;
  exp: number;
}
