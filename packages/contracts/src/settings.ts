import { z } from 'zod';
import { DOCUMENT_LIMITS } from './documents.js';
import { LIMITS } from './limits.js';
import { RETENTION_DAYS_MAX } from './retention.js';

/** Bounds and defaults of the `storage` settings (megabytes). */
export const STORAGE_LIMITS = {
  budgetMbDefault: 10_240,
  budgetMbMax: 100_000_000,
  addressMbPerHourDefault: 200,
  addressMbPerHourMax: 1_000_000,
} as const;

export const LOGIN_MODES = ['standard', 'email_verify_required'] as const;
export type LoginMode = (typeof LOGIN_MODES)[number];
/**
 * Who may sign in with a local password once single sign-on is set up. Super administrators
 * always may, so a broken identity provider never locks the site out (break-glass).
 */
export const LOCAL_PASSWORD_POLICIES = ['all', 'super_admin_only'] as const;
export type LocalPasswordPolicy = (typeof LOCAL_PASSWORD_POLICIES)[number];

/** True for a time zone this runtime knows (`Asia/Shanghai`, `UTC`, …) and for the empty string. */
export function isTimeZoneOrEmpty(value: string): boolean {
  if (value === '') return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** `12h`, `30m`, `7d`, `45s`: the access-token lifetime as sent in `expiresIn`. */
export const EXPIRES_IN_PATTERN = /^(\d{1,5})([smhd])$/;

/**
 * The whole system configuration. Each top-level section is stored as one row of
 * `system_settings`; missing keys take these defaults, so old rows keep working.
 * An empty site name or description means "use the translated default".
 */
export const SettingsSchema = z.object({
  site: z
    .object({
      name: z.string().max(100).default(''),
      description: z.string().max(500).default(''),
      logo: z.string().max(1000).default(''),
      favicon: z.string().max(1000).default(''),
    })
    .prefault({}),
  user: z
    .object({
      allow_register: z.boolean().default(true),
      email_verification: z.boolean().default(false),
      default_tokens: z.number().int().min(0).default(10000),
      default_credits: z.number().int().min(0).default(1000),
      default_group_id: z.number().int().min(1).default(1),
    })
    .prefault({}),
  ai: z
    .object({
      default_model: z.string().max(200).default('gpt-4.1-mini-op'),
      temperature: z.number().min(0).max(1).default(0),
      /** The conversation's model writes its title from the first question (an extra, uncharged call). */
      model_titles: z.boolean().default(false),
    })
    .prefault({}),
  chat: z
    .object({
      font_family: z.string().max(200).default('system-ui'),
      font_size: z.number().int().min(10).max(32).default(14),
    })
    .prefault({}),
  theme: z.object({ colors: z.record(z.string(), z.string()).default({}) }).prefault({}),
  login: z
    .object({
      mode: z.enum(LOGIN_MODES).default('standard'),
      local_password: z.enum(LOCAL_PASSWORD_POLICIES).default('all'),
    })
    .prefault({}),
  security: z
    .object({
      token_expires_in: z.string().regex(EXPIRES_IN_PATTERN).default('12h'),
      max_login_attempts: z.number().int().min(1).max(1000).default(5),
      rate_limit_enabled: z.boolean().default(true),
      /** Minutes without any request after which a session ends; 0 = only the token lifetime applies. */
      session_timeout_minutes: z.number().int().min(0).max(525_600).default(0),
    })
    .prefault({}),
  credits: z
    .object({
      enabled: z.boolean().default(true),
      min_credits_for_chat: z.number().int().min(0).default(0),
      default_credits_per_chat: z.number().int().min(0).default(LIMITS.defaultCreditsPerChat),
    })
    .prefault({}),
  /** Statistics and usage alerts. */
  stats: z
    .object({
      /** IANA zone that decides where a statistics day starts; empty = the server's own zone. */
      time_zone: z.string().max(64).refine(isTimeZoneOrEmpty, 'validation.timeZone.invalid').default(''),
      /** A user is warned in the notification bell when their balance falls below this (0 = never). */
      low_credits_threshold: z.number().int().min(0).default(100),
      /** A group's administrators are emailed when its undistributed pool falls below this share of the pool (0 = never). */
      pool_alert_percent: z.number().int().min(0).max(100).default(10),
    })
    .prefault({}),
  /**
   * Stored uploads (chat images and avatars) of the whole site, and how fast one client
   * address may add to them. Rules in docs/settings.md.
   */
  storage: z
    .object({
      /** Megabytes of stored uploads the site may hold; a new upload past it is refused (0 = no limit). */
      budget_mb: z.number().int().min(0).max(STORAGE_LIMITS.budgetMbMax).default(STORAGE_LIMITS.budgetMbDefault),
      /** Super administrators are emailed once stored uploads pass this share of the budget (0 = never). */
      alert_percent: z.number().int().min(0).max(100).default(90),
      /** Megabytes one client address may upload per hour, trusted networks exempt (0 = no limit). */
      address_mb_per_hour: z
        .number()
        .int()
        .min(0)
        .max(STORAGE_LIMITS.addressMbPerHourMax)
        .default(STORAGE_LIMITS.addressMbPerHourDefault),
    })
    .prefault({}),
  /** Documents in chat. Rules in docs/documents.md. */
  files: z
    .object({
      /** Largest document accepted, in megabytes (counted in the owner's storage quota too). */
      max_document_mb: z
        .number()
        .int()
        .min(1)
        .max(DOCUMENT_LIMITS.maxDocumentMbMax)
        .default(DOCUMENT_LIMITS.maxDocumentMbDefault),
      /** Documents go whole when they fit in this share of the model's context window after the history. */
      full_context_share: z.number().min(0).max(1).default(DOCUMENT_LIMITS.fullContextShareDefault),
    })
    .prefault({}),
  /** Knowledge search: the embedding model (`name` of a model of kind `embedding`; '' = full-text ranking only). */
  knowledge: z.object({ embedding_model: z.string().max(200).default('') }).prefault({}),
  /** Share links: a link marked public is readable without signing in only while this is on (docs/sharing.md). */
  sharing: z.object({ public_links: z.boolean().default(false) }).prefault({}),
  /** Days a conversation is kept after its last use (null: forever); a group may set its own (docs/retention.md). */
  retention: z.object({ days: z.number().int().min(1).max(RETENTION_DAYS_MAX).nullable().default(null) }).prefault({}),
  homepage: z
    .object({
      enabled: z.boolean().default(false),
      html: z.string().max(200_000).default(''),
      updated_at: z.string().nullable().default(null),
    })
    .prefault({}),
});
export type Settings = z.infer<typeof SettingsSchema>;

/**
 * What the custom homepage's frame may do, given both by the frame and by the document's own
 * policy: still no scripts, forms or same-origin access, but a click on a link may move the
 * whole window (links to this site) or open a new, unsandboxed tab (links elsewhere).
 */
export const HOMEPAGE_SANDBOX = 'allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation';
export type SettingsSection = keyof Settings;
export const SETTINGS_SECTIONS = Object.keys(SettingsSchema.shape) as SettingsSection[];

/** Legacy key names accepted on write and folded into the current ones. */
export function foldLegacySettings(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...input };
  const user = { ...((out.user as Record<string, unknown> | undefined) ?? {}) };
  if (user.default_token_quota !== undefined && user.default_tokens === undefined)
    user.default_tokens = user.default_token_quota;
  if (user.default_credits_quota !== undefined && user.default_credits === undefined)
    user.default_credits = user.default_credits_quota;
  delete user.default_token_quota;
  delete user.default_credits_quota;
  const credits = { ...((out.credits as Record<string, unknown> | undefined) ?? {}) };
  if (credits.default_credits !== undefined && user.default_credits === undefined)
    user.default_credits = credits.default_credits;
  delete credits.default_credits;
  out.user = user;
  out.credits = credits;
  return out;
}

export const PublicSystemConfigSchema = z.object({
  site: z.object({
    name: z.string(),
    description: z.string(),
    logo: z.string(),
    favicon: z.string(),
  }),
  /** `email_verification`: the sign-up form asks for an emailed code. */
  user: z.object({ allow_register: z.boolean(), email_verification: z.boolean() }),
  /** `local_password`: the sign-in page hides the password form when it is `super_admin_only`. */
  login: z.object({ mode: z.enum(LOGIN_MODES), local_password: z.enum(LOCAL_PASSWORD_POLICIES) }),
  homepage: z.object({ enabled: z.boolean() }),
  chat: z.object({ font_family: z.string(), font_size: z.number() }),
  /** Defaults of the new-conversation form; nothing secret. */
  ai: z.object({ default_model: z.string(), temperature: z.number() }),
  theme: z.object({ colors: z.record(z.string(), z.string()) }),
  /** `public_links`: the share dialog offers links readable without signing in. */
  sharing: z.object({ public_links: z.boolean() }),
});
export type PublicSystemConfig = z.infer<typeof PublicSystemConfigSchema>;

/** Parses `12h`-style lifetimes into seconds; falls back to 12 hours. */
export function expiresInToSeconds(value: string | undefined): number {
  const m = value ? EXPIRES_IN_PATTERN.exec(value) : null;
  if (!m) return 12 * 3600;
  const n = Number(m[1]);
  const unit = { s: 1, m: 60, h: 3600, d: 86400 }[m[2] as 's' | 'm' | 'h' | 'd'];
  return n * unit;
}
