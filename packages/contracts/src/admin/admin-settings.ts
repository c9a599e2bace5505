import { z } from 'zod';
import {
  EXPIRES_IN_PATTERN,
  LOCAL_PASSWORD_POLICIES,
  LOGIN_MODES,
  STORAGE_LIMITS,
  SettingsSchema,
  isTimeZoneOrEmpty,
} from '../settings.js';
import { DOCUMENT_LIMITS } from '../documents.js';
import { RetentionDaysSchema } from '../retention.js';
import { ROW_ID_MAX } from './pagination.js';

/** GET /admin/settings: the whole configuration; `_readOnly` for a group administrator. */
export const AdminSettingsSchema = SettingsSchema.extend({ _readOnly: z.boolean() });
export type AdminSettings = z.infer<typeof AdminSettingsSchema>;

const int = (key: string, min: number, max: number) => z.number({ error: key }).int(key).min(min, key).max(max, key);

/** Theme colours become CSS variables: plain names, hex values only (nothing that could smuggle CSS). */
export const ThemeColorsSchema = z
  .record(
    z.string().regex(/^[a-zA-Z][\w-]{0,39}$/, 'validation.themeColor.invalid'),
    z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'validation.themeColor.invalid'),
    { error: 'validation.themeColor.invalid' },
  )
  .refine((r) => Object.keys(r).length <= 50, 'validation.themeColor.invalid');

/** A site image: one of our uploads, an http(s) address, or empty for the default. */
const SiteImageSchema = z
  .string()
  .trim()
  .max(1000, 'validation.url.invalid')
  .refine((v) => v === '' || v.startsWith('/api/') || /^https?:\/\/[^\s]+$/i.test(v), 'validation.url.invalid');

/**
 * PUT /admin/settings: any subset of sections and fields, deep-merged into the stored
 * configuration and then validated as a whole. The homepage has its own call.
 */
export const SettingsUpdateBodySchema = z.object({
  site: z
    .object({
      name: z.string().trim().max(100, 'validation.siteName.max'),
      description: z.string().trim().max(500, 'validation.description.max'),
      logo: SiteImageSchema,
      favicon: SiteImageSchema,
    })
    .partial()
    .optional(),
  user: z
    .object({
      allow_register: z.boolean(),
      email_verification: z.boolean(),
      default_tokens: int('validation.defaultTokens.invalid', 0, 1_000_000_000),
      default_credits: int('validation.defaultCredits.invalid', 0, 1_000_000_000),
      default_group_id: int('validation.group.required', 1, ROW_ID_MAX),
    })
    .partial()
    .optional(),
  ai: z
    .object({
      default_model: z.string().trim().min(1, 'validation.model.required').max(200, 'validation.modelName.max'),
      temperature: z
        .number({ error: 'validation.temperature.range' })
        .min(0, 'validation.temperature.range')
        .max(1, 'validation.temperature.range'),
    })
    .partial()
    .optional(),
  chat: z
    .object({
      font_family: z
        .string()
        .trim()
        .min(1, 'validation.fontFamily.invalid')
        .max(200, 'validation.fontFamily.invalid')
        .regex(/^[\w\s,'"-]+$/, 'validation.fontFamily.invalid'),
      font_size: int('validation.fontSize.invalid', 10, 32),
    })
    .partial()
    .optional(),
  theme: z.object({ colors: ThemeColorsSchema }).partial().optional(),
  login: z
    .object({
      mode: z.enum(LOGIN_MODES, { error: 'validation.loginMode.invalid' }),
      local_password: z.enum(LOCAL_PASSWORD_POLICIES, { error: 'validation.localPassword.invalid' }),
    })
    .partial()
    .optional(),
  security: z
    .object({
      token_expires_in: z.string().regex(EXPIRES_IN_PATTERN, 'validation.tokenExpiresIn.invalid'),
      max_login_attempts: int('validation.maxLoginAttempts.invalid', 1, 1000),
      rate_limit_enabled: z.boolean(),
      session_timeout_minutes: int('validation.sessionTimeout.invalid', 0, 525_600),
    })
    .partial()
    .optional(),
  credits: z
    .object({
      enabled: z.boolean(),
      min_credits_for_chat: int('validation.minCredits.invalid', 0, 1_000_000_000),
      default_credits_per_chat: int('validation.creditsPerChat.invalid', 0, 1_000_000),
    })
    .partial()
    .optional(),
  stats: z
    .object({
      time_zone: z
        .string({ error: 'validation.timeZone.invalid' })
        .trim()
        .max(64, 'validation.timeZone.invalid')
        .refine(isTimeZoneOrEmpty, 'validation.timeZone.invalid'),
      low_credits_threshold: int('validation.lowCreditsThreshold.invalid', 0, 1_000_000_000),
      pool_alert_percent: int('validation.poolAlertPercent.invalid', 0, 100),
    })
    .partial()
    .optional(),
  storage: z
    .object({
      budget_mb: int('validation.storageBudget.invalid', 0, STORAGE_LIMITS.budgetMbMax),
      alert_percent: int('validation.storageAlertPercent.invalid', 0, 100),
      address_mb_per_hour: int('validation.addressUploadLimit.invalid', 0, STORAGE_LIMITS.addressMbPerHourMax),
    })
    .partial()
    .optional(),
  files: z
    .object({
      max_document_mb: int('validation.maxDocumentMb.invalid', 1, DOCUMENT_LIMITS.maxDocumentMbMax),
      full_context_share: z
        .number({ error: 'validation.fullContextShare.invalid' })
        .min(0, 'validation.fullContextShare.invalid')
        .max(1, 'validation.fullContextShare.invalid'),
    })
    .partial()
    .optional(),
  knowledge: z
    .object({ embedding_model: z.string().trim().max(200, 'validation.modelName.max') })
    .partial()
    .optional(),
  sharing: z.object({ public_links: z.boolean() }).partial().optional(),
  retention: z.object({ days: RetentionDaysSchema }).partial().optional(),
});
export type SettingsUpdateBody = z.infer<typeof SettingsUpdateBodySchema>;

/** The custom homepage shown at / to visitors who are not signed in. */
export const HomepageSchema = z.object({
  enabled: z.boolean(),
  /** Sanitised on save. */
  html: z.string(),
  updated_at: z.string().nullable(),
});
export type Homepage = z.infer<typeof HomepageSchema>;
export const HomepageBodySchema = z.object({
  enabled: z.boolean().optional(),
  html: z.string().max(200_000, 'validation.homepage.max').optional(),
});
export type HomepageBody = z.infer<typeof HomepageBodySchema>;
/** GET /public/homepage. */
export const PublicHomepageSchema = z.object({ enabled: z.boolean(), html: z.string() });
export type PublicHomepage = z.infer<typeof PublicHomepageSchema>;

/**
 * GET /admin/settings/storage-usage: bytes of stored uploads (counted from the database)
 * against the site's budget (`budget_bytes` 0 = no limit).
 */
export const StorageUsageSchema = z.object({
  used_bytes: z.number(),
  images_bytes: z.number(),
  avatars_bytes: z.number(),
  budget_bytes: z.number(),
  alert_percent: z.number(),
});
export type StorageUsage = z.infer<typeof StorageUsageSchema>;

/** POST /admin/settings/upload-logo and upload-favicon. */
export const UploadedSiteImageSchema = z.object({ url: z.string() });
export type UploadedSiteImage = z.infer<typeof UploadedSiteImageSchema>;
