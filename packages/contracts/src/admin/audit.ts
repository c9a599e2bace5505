import { z } from 'zod';
import { AdminPageQuerySchema, QueryRowIdSchema, ROW_ID_MAX } from './pagination.js';

/** What an audit row says changed: the fields before and after, secrets redacted. */
export const AuditChangesSchema = z.object({
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditChanges = z.infer<typeof AuditChangesSchema>;

export const AuditLogSchema = z.object({
  id: z.number(),
  actor_id: z.number().nullable(),
  actor_username: z.string().nullable(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string().nullable(),
  changes: AuditChangesSchema,
  ip: z.string().nullable(),
  request_id: z.string().nullable(),
  created_at: z.string(),
});
export type AuditLog = z.infer<typeof AuditLogSchema>;

const DateQuery = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?$/)
  .optional()
  .catch(undefined);
export const AuditFilterSchema = z.object({
  actor_id: QueryRowIdSchema.optional(),
  action: z.string().trim().max(64).optional().catch(undefined),
  target_type: z.string().trim().max(32).optional().catch(undefined),
  /** Inclusive day or instant (UTC). */
  from: DateQuery,
  /** Inclusive day (the whole day) or instant (UTC). */
  to: DateQuery,
});
export type AuditFilter = z.infer<typeof AuditFilterSchema>;
export const AuditListQuerySchema = AdminPageQuerySchema.extend(AuditFilterSchema.shape);
export type AuditListQuery = z.infer<typeof AuditListQuerySchema>;

/** Hex SHA-256 / HMAC-SHA256 values as the audit log stores them. */
const Hex64 = z.string().regex(/^[0-9a-f]{64}$/, 'validation.audit.hex');

/** The `format` every audit checkpoint names, so a stored file says what it is. */
export const AUDIT_CHECKPOINT_FORMAT = 'aiplatform.audit-checkpoint.v1';

/**
 * A signed statement of the audit chain's head at one moment: how many rows the chain
 * held, the newest row's id and hash, and when. The server signs it with a key the database
 * does not hold; kept outside the database it shows later whether rows were removed from
 * the end or the chain was rewritten before that moment.
 */
export const AuditCheckpointSchema = z.object({
  format: z.literal(AUDIT_CHECKPOINT_FORMAT, { error: 'validation.audit.format' }),
  /** Rows in the chain (the newest row's sequence number). */
  count: z.number().int().min(0).max(ROW_ID_MAX),
  /** The newest row's id (null for an empty chain). */
  last_id: z.number().int().min(1).max(ROW_ID_MAX).nullable(),
  /** The newest row's hash (64 zeros for an empty chain). */
  hash: Hex64,
  created_at: z.iso.datetime({ error: 'validation.audit.time' }),
  signature: Hex64,
});
export type AuditCheckpoint = z.infer<typeof AuditCheckpointSchema>;

/** A checkpoint as stored by the server: the signed statement, its row id and who asked for it. */
export const AuditCheckpointRecordSchema = AuditCheckpointSchema.extend({
  id: z.number(),
  /** The administrator who created it; null for the daily one. */
  created_by: z.number().nullable(),
});
export type AuditCheckpointRecord = z.infer<typeof AuditCheckpointRecordSchema>;

/**
 * Why a chain is not valid:
 * - `row`: a row does not fit its content or its predecessor (edited, deleted, inserted,
 *   or recomputed without the key); `broken_at` names it
 * - `rows_removed`: the newest rows were removed (the chain head counts more rows)
 * - `keying`: the recorded point where rows started being keyed was moved or altered
 * - `rewound`: a checkpoint counts more rows than the chain holds now
 * - `diverged`: the chain no longer passes through a checkpoint's row (rows up to it were
 *   replaced or recomputed)
 * - `checkpoint_forged`: a stored checkpoint's signature does not match its content
 */
export const AUDIT_CHAIN_PROBLEMS = [
  'row',
  'rows_removed',
  'keying',
  'rewound',
  'diverged',
  'checkpoint_forged',
] as const;
export type AuditChainProblem = (typeof AUDIT_CHAIN_PROBLEMS)[number];

export const AuditVerifyResultSchema = z.object({
  valid: z.boolean(),
  checked: z.number(),
  /** The first row whose hash does not match its content or its predecessor. */
  broken_at: z.number().nullable(),
  problem: z.enum(AUDIT_CHAIN_PROBLEMS).nullable(),
  /**
   * The checkpoint the chain was compared with: the one that failed, else the one given,
   * else the newest stored; null when there is none.
   */
  checkpoint: z.object({ count: z.number(), created_at: z.string() }).nullable(),
});
export type AuditVerifyResult = z.infer<typeof AuditVerifyResultSchema>;
