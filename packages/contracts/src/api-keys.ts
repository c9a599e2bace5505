import { z } from 'zod';
import { AdminPageQuerySchema, QueryRowIdSchema } from './admin/pagination.js';
import { MODEL_KINDS } from './documents.js';

/** The budget period of a key's credit limit: a calendar day, week or month, or the key's whole life. */
export const API_KEY_PERIODS = ['day', 'week', 'month', 'total'] as const;
export type ApiKeyPeriod = (typeof API_KEY_PERIODS)[number];

/** A key's secret starts with this, so tools and secret scanners recognise it. */
export const API_KEY_SECRET_PREFIX = 'sk-';

export const API_KEY_LIMITS = {
  nameMax: 100,
  modelsMax: 100,
  ipAllowMax: 50,
  rpmMax: 100_000,
  creditLimitMax: 1_000_000_000,
  /** Live (not revoked) keys one person may hold. */
  liveKeysPerUser: 50,
} as const;

/** A personal API key as its owner (and administrators) see it: never the secret. */
export const ApiKeySchema = z.object({
  id: z.number(),
  name: z.string(),
  /** The secret's first characters, to recognise the key. */
  prefix: z.string(),
  /** Model names the key may call; empty: every model its owner may use. */
  models: z.array(z.string()),
  credit_limit: z.number().nullable(),
  period: z.enum(API_KEY_PERIODS).nullable(),
  /** Credits the key spent in its current period (its whole life for `total`). */
  spent_in_period: z.number(),
  expires_at: z.string().nullable(),
  ip_allow: z.array(z.string()),
  rpm: z.number().nullable(),
  last_used_at: z.string().nullable(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;

/** A key in the administrators' list: with its owner. */
export const AdminApiKeySchema = ApiKeySchema.extend({
  user_id: z.number(),
  username: z.string(),
  email: z.string(),
});
export type AdminApiKey = z.infer<typeof AdminApiKeySchema>;

/** An address or a network: `203.0.113.0/24`, `2001:db8::/32`, or a single address. */
const CidrSchema = z
  .string({ error: 'validation.personalKey.ipAllow' })
  .trim()
  .refine((v) => [z.cidrv4(), z.cidrv6(), z.ipv4(), z.ipv6()].some((s) => s.safeParse(v).success), {
    message: 'validation.personalKey.ipAllow',
  });

/** POST /keys. */
export const CreateApiKeyBodySchema = z
  .object({
    name: z
      .string({ error: 'validation.personalKey.name' })
      .trim()
      .min(1, 'validation.personalKey.name')
      .max(API_KEY_LIMITS.nameMax, 'validation.personalKey.nameMax'),
    models: z
      .array(
        z.string({ error: 'validation.personalKey.models' }).trim().min(1, 'validation.personalKey.models').max(200),
      )
      .max(API_KEY_LIMITS.modelsMax, 'validation.personalKey.models')
      .default([]),
    credit_limit: z
      .number({ error: 'validation.personalKey.creditLimit' })
      .int('validation.personalKey.creditLimit')
      .min(1, 'validation.personalKey.creditLimit')
      .max(API_KEY_LIMITS.creditLimitMax, 'validation.personalKey.creditLimit')
      .nullable()
      .default(null),
    period: z.enum(API_KEY_PERIODS, { error: 'validation.personalKey.period' }).nullable().default(null),
    expires_at: z.iso.datetime({ offset: true, error: 'validation.personalKey.expiresAt' }).nullable().default(null),
    ip_allow: z.array(CidrSchema).max(API_KEY_LIMITS.ipAllowMax, 'validation.personalKey.ipAllow').default([]),
    rpm: z
      .number({ error: 'validation.personalKey.rpm' })
      .int('validation.personalKey.rpm')
      .min(1, 'validation.personalKey.rpm')
      .max(API_KEY_LIMITS.rpmMax, 'validation.personalKey.rpm')
      .nullable()
      .default(null),
  })
  // A limit needs its period; a period alone limits nothing.
  .refine((b) => (b.credit_limit === null) === (b.period === null), {
    path: ['period'],
    message: 'validation.personalKey.period',
  });
export type CreateApiKeyBody = z.input<typeof CreateApiKeyBodySchema>;

/** The answer of POST /keys: the only time the secret is ever sent. */
export const CreatedApiKeySchema = z.object({ key: ApiKeySchema, secret: z.string() });
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>;

/** GET /admin/api-keys. */
export const AdminApiKeyListQuerySchema = AdminPageQuerySchema.extend({
  user_id: QueryRowIdSchema.optional(),
  search: z.string().trim().max(100).optional(),
});
export type AdminApiKeyListQuery = z.infer<typeof AdminApiKeyListQuerySchema>;

/** GET /keys/models: the models a new key may be limited to (those its owner may use, chat and embedding). */
export const ApiKeyModelSchema = z.object({
  name: z.string(),
  display_name: z.string(),
  kind: z.enum(MODEL_KINDS),
});
export type ApiKeyModel = z.infer<typeof ApiKeyModelSchema>;
