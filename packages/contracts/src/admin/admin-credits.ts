import { z } from 'zod';
import { TRANSACTION_TYPES } from '../auth.js';
import { AdminUserSchema } from './admin-users.js';
import { AdminPageQuerySchema } from './pagination.js';

export const CREDIT_OPERATIONS = ['add', 'deduct', 'set'] as const;
export type CreditOperation = (typeof CREDIT_OPERATIONS)[number];
export const CREDIT_AMOUNT_MAX = 1_000_000_000;
export const EXTEND_DAYS_MAX = 3650;

export const ReasonSchema = z
  .string({ error: 'validation.reason.required' })
  .trim()
  .min(1, 'validation.reason.required')
  .max(200, 'validation.reason.max');

/** A whole number of credits; `set` may be 0, add and deduct must move something. */
export const CreditAmountSchema = z
  .number({ error: 'validation.amount.invalid' })
  .int('validation.amount.invalid')
  .min(0, 'validation.amount.invalid')
  .max(CREDIT_AMOUNT_MAX, 'validation.amount.invalid');

/** POST /admin/users/{id}/credits. `extend_days` moves the expiry (0 = leave it). */
export const CreditOperationBodySchema = z
  .object({
    operation: z.enum(CREDIT_OPERATIONS, { error: 'validation.operation.invalid' }),
    amount: CreditAmountSchema,
    reason: ReasonSchema,
    extend_days: z
      .number({ error: 'validation.extendDays.invalid' })
      .int('validation.extendDays.invalid')
      .min(0, 'validation.extendDays.invalid')
      .max(EXTEND_DAYS_MAX, 'validation.extendDays.invalid')
      .optional(),
  })
  .refine((b) => b.operation === 'set' || b.amount > 0, { path: ['amount'], message: 'validation.amount.positive' });
export type CreditOperationBody = z.infer<typeof CreditOperationBodySchema>;

/** One ledger row as administrators see it: who did it and why. */
export const CreditTransactionSchema = z.object({
  id: z.number(),
  user_id: z.number(),
  transaction_type: z.enum(TRANSACTION_TYPES),
  amount: z.number(),
  balance_after: z.number(),
  description: z.string(),
  operator_id: z.number().nullable(),
  operator_username: z.string().nullable(),
  reason: z.string().nullable(),
  created_at: z.string(),
});
export type CreditTransaction = z.infer<typeof CreditTransactionSchema>;

export const CreditOperationResultSchema = z.object({ user: AdminUserSchema, transaction: CreditTransactionSchema });
export type CreditOperationResult = z.infer<typeof CreditOperationResultSchema>;

export const AdminCreditHistoryQuerySchema = AdminPageQuerySchema.extend({
  type: z.enum(TRANSACTION_TYPES).optional().catch(undefined),
});
