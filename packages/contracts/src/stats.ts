import { z } from 'zod';
import { QueryRowIdSchema, queryInt } from './admin/pagination.js';

/**
 * Statistics. Every number comes from the daily usage rollups, which the chat turn
 * updates in the same transaction that charges it, so they never disagree with the
 * ledger. Dates are `YYYY-MM-DD` in the configured statistics time zone.
 */

/** Days left at or below which a user is warned that their credits expire. */
export const CREDITS_EXPIRY_WARNING_DAYS = 7;
/** How long a user counts as online after a heartbeat or any request. */
export const PRESENCE_WINDOW_SECONDS = 90;
/** How often the dashboard asks for the realtime numbers and beats the heart. */
export const STATS_POLL_SECONDS = 30;
/** Ranges the statistics screens offer; `days` accepts any whole number in 1..MAX. */
export const STATS_RANGES = [7, 30, 90] as const;
export const STATS_MAX_DAYS = 366;

export const UserCreditsStatsSchema = z.object({
  group_name: z.string().nullable(),
  group_color: z.string().nullable(),
  credits_total: z.number(),
  credits_used: z.number(),
  credits_remaining: z.number(),
  /** Credits spent on chat today (refunds already taken off). */
  today_consumed: z.number(),
  is_expired: z.boolean(),
  /** Whole days until the credits expire; null when they never do. */
  remaining_days: z.number().nullable(),
  expire_at: z.string().nullable(),
  /** The balance below which the user is warned (0 = never). */
  low_credits_threshold: z.number(),
  /** remaining < low_credits_threshold. */
  is_low: z.boolean(),
});
export type UserCreditsStats = z.infer<typeof UserCreditsStatsSchema>;

export const PopularModelSchema = z.object({
  model_name: z.string(),
  display_name: z.string(),
  usage_count: z.number(),
});

/**
 * Whose figures the dashboard's live card shows: the whole site (super administrators and
 * site-wide administrators), the viewer's group (group administrators), or the viewer alone.
 */
export const REALTIME_SCOPES = ['site', 'group', 'user'] as const;
export type RealtimeScope = (typeof REALTIME_SCOPES)[number];

export const RealtimeStatsSchema = z.object({
  scope: z.enum(REALTIME_SCOPES),
  online_users: z.number(),
  today_active_users: z.number(),
  today_messages: z.number(),
  today_tokens: z.number(),
  today_conversations: z.number(),
  total_users: z.number(),
  popular_models: z.array(PopularModelSchema),
  timestamp: z.string(),
});
export type RealtimeStats = z.infer<typeof RealtimeStatsSchema>;

/** POST /stats/heartbeat: the user counts as online for PRESENCE_WINDOW_SECONDS. */
export const HeartbeatSchema = z.object({ online: z.boolean() });

export const UsageDaySchema = z.object({
  date: z.string(),
  messages: z.number(),
  tokens: z.number(),
  credits: z.number(),
  active_users: z.number(),
  conversations: z.number(),
});
export type UsageDay = z.infer<typeof UsageDaySchema>;

export const UsageByModelSchema = z.object({
  model_name: z.string(),
  display_name: z.string(),
  messages: z.number(),
  tokens: z.number(),
  credits: z.number(),
});

export const UsageByGroupSchema = z.object({
  /** null: users outside any group. */
  group_id: z.number().nullable(),
  group_name: z.string().nullable(),
  group_color: z.string().nullable(),
  messages: z.number(),
  tokens: z.number(),
  credits: z.number(),
  active_users: z.number(),
});

export const TopUserSchema = z.object({
  user_id: z.number(),
  username: z.string(),
  messages: z.number(),
  tokens: z.number(),
  credits: z.number(),
});

/**
 * `/stats/me` and `/admin/stats/overview`. `days` has one entry per day of the range,
 * oldest first, zeros included. `/stats/me` leaves `groups` and `top_users` empty.
 */
export const UsageOverviewSchema = z.object({
  time_zone: z.string(),
  from: z.string(),
  to: z.string(),
  totals: z.object({
    messages: z.number(),
    tokens: z.number(),
    credits: z.number(),
    conversations: z.number(),
    active_users: z.number(),
  }),
  days: z.array(UsageDaySchema),
  models: z.array(UsageByModelSchema),
  groups: z.array(UsageByGroupSchema),
  top_users: z.array(TopUserSchema),
  /**
   * Administrators' view: where the credits went, the site's chat (`ui`) or personal API
   * keys (`api`), and the keys that spent most.
   */
  sources: z
    .object({
      ui: z.object({ tokens: z.number(), credits: z.number() }),
      api: z.object({ requests: z.number(), tokens: z.number(), credits: z.number() }),
    })
    .optional(),
  api_keys: z
    .array(
      z.object({
        api_key_id: z.number(),
        key_name: z.string().nullable(),
        user_id: z.number(),
        username: z.string(),
        requests: z.number(),
        tokens: z.number(),
        credits: z.number(),
      }),
    )
    .optional(),
});
export type UsageOverview = z.infer<typeof UsageOverviewSchema>;

/** 1 to STATS_MAX_DAYS days, 30 when absent; anything else is refused (400). */
const Days = queryInt(1, STATS_MAX_DAYS).default(30);

export const MyStatsQuerySchema = z.object({ days: Days });

export const StatsOverviewQuerySchema = z.object({
  days: Days,
  /** Super administrator: one group, or every group when absent. A group administrator always gets their own. */
  group_id: QueryRowIdSchema.optional(),
});
export type StatsOverviewQuery = z.infer<typeof StatsOverviewQuerySchema>;
