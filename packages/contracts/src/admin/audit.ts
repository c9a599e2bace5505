import { z } from 'zod';
import { AdminPageQuerySchema, QueryRowIdSchema } from './pagination.js';

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

export const AuditVerifyResultSchema = z.object({
  valid: z.boolean(),
  checked: z.number(),
  /** The first row whose hash does not match its content or its predecessor. */
  broken_at: z.number().nullable(),
});
export type AuditVerifyResult = z.infer<typeof AuditVerifyResultSchema>;
