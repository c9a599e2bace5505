import { z } from 'zod';

/** How long a usage cap's window lasts; windows follow the statistics time zone, weeks start on Monday. */
export const CAP_PERIODS = ['day', 'week', 'month'] as const;
export type CapPeriod = (typeof CAP_PERIODS)[number];

/** Where a budget alert is delivered. */
export const ALERT_CHANNELS = ['in_app', 'email', 'webhook'] as const;
export type AlertChannel = (typeof ALERT_CHANNELS)[number];

/** At most this many caps and alert thresholds per user or group. */
export const CAPS_MAX = 12;

export const CapSchema = z.object({
  period: z.enum(CAP_PERIODS, { error: 'validation.caps.period' }),
  credits: z
    .number({ error: 'validation.caps.credits' })
    .int('validation.caps.credits')
    .min(1, 'validation.caps.credits')
    .max(2_000_000_000, 'validation.caps.credits'),
  /** Counts only this model's turns; absent or null, every model's. */
  model_name: z.string().trim().min(1, 'validation.caps.model').max(100, 'validation.caps.model').nullish(),
});
export type Cap = z.infer<typeof CapSchema>;

export const CapAlertSchema = z.object({
  percent: z
    .number({ error: 'validation.caps.percent' })
    .int('validation.caps.percent')
    .min(1, 'validation.caps.percent')
    .max(100, 'validation.caps.percent'),
  channels: z.array(z.enum(ALERT_CHANNELS, { error: 'validation.caps.channel' })).max(3),
});
export type CapAlert = z.infer<typeof CapAlertSchema>;

const noRepeats = <T>(items: readonly T[], key: (t: T) => string) => new Set(items.map(key)).size === items.length;

/** PUT /admin/users/{id}/caps and /admin/user-groups/{id}/caps: replaces the subject's caps and alerts. */
export const CapsBodySchema = z.object({
  caps: z
    .array(CapSchema)
    .max(CAPS_MAX, 'validation.caps.tooMany')
    .refine((c) => noRepeats(c, (x) => `${x.period}/${x.model_name ?? ''}`), 'validation.caps.duplicate'),
  alerts: z
    .array(CapAlertSchema)
    .max(CAPS_MAX, 'validation.caps.tooMany')
    .refine((a) => noRepeats(a, (x) => String(x.percent)), 'validation.caps.duplicate')
    .default([]),
  webhook_url: z
    .url({ protocol: /^https?$/, error: 'validation.caps.webhookUrl' })
    .max(2000, 'validation.caps.webhookUrl')
    .nullish(),
});
export type CapsBody = z.infer<typeof CapsBodySchema>;

/** What an administrator reads back: the stored caps and alerts, and the key that signs the webhook. */
export const CapsConfigSchema = z.object({
  caps: z.array(z.object({ period: z.enum(CAP_PERIODS), credits: z.number(), model_name: z.string().nullable() })),
  alerts: z.array(z.object({ percent: z.number(), channels: z.array(z.enum(ALERT_CHANNELS)) })),
  webhook_url: z.string().nullable(),
  /** HMAC-SHA256 key of the `X-Signature` header of this subject's webhook calls. */
  webhook_secret: z.string(),
});
export type CapsConfig = z.infer<typeof CapsConfigSchema>;

/** PUT /auth/caps: the caller's own caps, each lower than any administrator's cap of the same kind. */
export const PersonalCapsBodySchema = CapsBodySchema.pick({ caps: true });
export type PersonalCapsBody = z.infer<typeof PersonalCapsBodySchema>;

/** One cap in force for the caller, with the window it is counting now. */
export const CapStatusSchema = z.object({
  period: z.enum(CAP_PERIODS),
  model_name: z.string().nullable(),
  /** Who set it: the caller's administrator, their group's, or the caller. */
  source: z.enum(['user', 'group', 'personal']),
  limit: z.number(),
  used: z.number(),
  resets_at: z.string(),
});
export type CapStatus = z.infer<typeof CapStatusSchema>;

/** GET /auth/caps: the caps that apply to the caller now, and the personal ones they set. */
export const MyCapsSchema = z.object({
  applying: z.array(CapStatusSchema),
  personal: CapsConfigSchema.shape.caps,
});
export type MyCaps = z.infer<typeof MyCapsSchema>;

/** The data of a 429 CAP_REACHED. */
export const CapReachedDataSchema = z.object({
  period: z.enum(CAP_PERIODS),
  limit: z.number(),
  used: z.number(),
  resets_at: z.string(),
  source: z.enum(['user', 'group', 'personal']),
  model_name: z.string().nullable(),
});
export type CapReachedData = z.infer<typeof CapReachedDataSchema>;

/** One bell notification. */
export const NotificationSchema = z.object({
  id: z.number(),
  kind: z.string(),
  /** Translated text. */
  title: z.string(),
  body: z.string(),
  data: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  read_at: z.string().nullable(),
});
export type Notification = z.infer<typeof NotificationSchema>;

export const NotificationListSchema = z.object({ items: z.array(NotificationSchema), unread: z.number() });
export type NotificationList = z.infer<typeof NotificationListSchema>;
