import type { Generated } from 'kysely';

/*
 * The tables of usage caps, budget alerts and notifications (migration 0028), gathered into
 * `Database` by types.ts. Timestamps are ISO-8601 UTC strings, days `YYYY-MM-DD` in the
 * statistics zone, booleans 0/1.
 */

/** Who a cap or an alert is about. */
export type CapSubjectType = 'user' | 'group';

/** One cap: at most `credits` per window of `period`; `model_name` '' counts every model. */
export interface UsageCapsTable {
  subject_type: CapSubjectType;
  subject_id: number;
  /** 1 when the user set it for themselves. */
  personal: number;
  period: 'day' | 'week' | 'month';
  model_name: string;
  credits: number;
  updated_at: string;
}

/** A subject's alert thresholds (JSON `[{ percent, channels }]`) and webhook address. */
export interface UsageCapSubjectsTable {
  subject_type: CapSubjectType;
  subject_id: number;
  alerts: string;
  webhook_url: string | null;
  updated_at: string;
}

/** Credits spent by a subject in the window starting `window_start` (a day). */
export interface UsageCapCountersTable {
  subject_type: CapSubjectType;
  subject_id: number;
  period: 'day' | 'week' | 'month';
  model_name: string;
  window_start: string;
  used: number;
}

/** An alert that has fired: the primary key makes it once per cap, window and threshold. */
export interface UsageCapAlertsTable {
  subject_type: CapSubjectType;
  subject_id: number;
  period: 'day' | 'week' | 'month';
  model_name: string;
  window_start: string;
  percent: number;
  created_at: string;
}

/** A group's pool alert that has fired and holds until the pool is back under its threshold. */
export interface PoolAlertMarksTable {
  group_id: number;
  percent: number;
  created_at: string;
}

/** A message in a user's bell; `data` is JSON its text is built from. */
export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  data: string;
  created_at: string;
  read_at: string | null;
}

/** A mail or webhook call of an alert, waiting (`pending`) until sent or given up. */
export interface AlertDeliveriesTable {
  id: Generated<number>;
  channel: 'email' | 'webhook';
  /** An email address or a URL. */
  target: string;
  subject_type: CapSubjectType;
  subject_id: number;
  /** JSON: the webhook's body as sent, or the mail's `{ subject, text }`. */
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: string;
  /** An instance sending it holds it until then. */
  lease_until: string | null;
  created_at: string;
  delivered_at: string | null;
}

/** One try of a delivery and what came of it. */
export interface AlertDeliveryAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  attempted_at: string;
  http_status: number | null;
  error: string | null;
  duration_ms: number;
}

export interface CapsTables {
  usage_caps: UsageCapsTable;
  usage_cap_subjects: UsageCapSubjectsTable;
  usage_cap_counters: UsageCapCountersTable;
  usage_cap_alerts: UsageCapAlertsTable;
  pool_alert_marks: PoolAlertMarksTable;
  notifications: NotificationsTable;
  alert_deliveries: AlertDeliveriesTable;
  alert_delivery_attempts: AlertDeliveryAttemptsTable;
}
