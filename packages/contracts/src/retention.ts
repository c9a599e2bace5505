import { z } from 'zod';

/** Longest retention a site or a group may set, in days (about a hundred years). */
export const RETENTION_DAYS_MAX = 36_500;

/** Days a conversation is kept after its last use; null keeps it forever. */
export const RetentionDaysSchema = z
  .number({ error: 'validation.retentionDays.invalid' })
  .int('validation.retentionDays.invalid')
  .min(1, 'validation.retentionDays.invalid')
  .max(RETENTION_DAYS_MAX, 'validation.retentionDays.invalid')
  .nullable();

/** GET /chat/retention: the caller's own policy (their group's days, else the site's; null: kept forever). */
export const RetentionPolicySchema = z.object({ days: z.number().nullable() });
export type RetentionPolicy = z.infer<typeof RetentionPolicySchema>;

/** POST /admin/retention/run: a dry run only counts. */
export const RetentionRunBodySchema = z.object({
  dry_run: z.boolean({ error: 'validation.status.invalid' }).default(false),
});
/** What a run deleted (or, dry, would delete). */
export const RetentionRunResultSchema = z.object({ conversations: z.number(), files: z.number() });
export type RetentionRunResult = z.infer<typeof RetentionRunResultSchema>;

/** One recorded run: by the daily job (`started_by` null) or an administrator. */
export const RetentionRunSchema = z.object({
  id: z.number(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  dry_run: z.boolean(),
  status: z.enum(['running', 'done', 'failed']),
  conversations: z.number(),
  files: z.number(),
  started_by: z.number().nullable(),
  started_by_name: z.string().nullable(),
});
export type RetentionRun = z.infer<typeof RetentionRunSchema>;

export const LEGAL_HOLD_SUBJECTS = ['user', 'group'] as const;
export type LegalHoldSubject = (typeof LEGAL_HOLD_SUBJECTS)[number];

/** PUT /admin/users/{id}/legal-hold and /admin/user-groups/{id}/legal-hold: placing needs a reason. */
export const LegalHoldBodySchema = z
  .object({
    on: z.boolean({ error: 'validation.legalHold.on' }),
    reason: z
      .string({ error: 'validation.legalHold.reasonRequired' })
      .trim()
      .max(500, 'validation.legalHold.reasonMax')
      .default(''),
  })
  .refine((b) => !b.on || b.reason.length > 0, { message: 'validation.legalHold.reasonRequired', path: ['reason'] });
export type LegalHoldBody = z.infer<typeof LegalHoldBodySchema>;

/** A subject's hold after a change (`on` false: none). */
export const LegalHoldStateSchema = z.object({
  subject_type: z.enum(LEGAL_HOLD_SUBJECTS),
  subject_id: z.number(),
  on: z.boolean(),
  reason: z.string().nullable(),
  placed_at: z.string().nullable(),
});
export type LegalHoldState = z.infer<typeof LegalHoldStateSchema>;

/** A hold in the console's list. */
export const LegalHoldSchema = z.object({
  id: z.number(),
  subject_type: z.enum(LEGAL_HOLD_SUBJECTS),
  subject_id: z.number(),
  /** The user's username or the group's name. */
  subject_name: z.string(),
  reason: z.string(),
  placed_at: z.string(),
  placed_by_name: z.string().nullable(),
});
export type LegalHold = z.infer<typeof LegalHoldSchema>;
