import { z } from 'zod';
import {
  LegalHoldBodySchema,
  LegalHoldSchema,
  LegalHoldStateSchema,
  RetentionPolicySchema,
  RetentionRunBodySchema,
  RetentionRunResultSchema,
  RetentionRunSchema,
} from '../retention.js';
import type { CallSpec } from './spec.js';

/**
 * Retention and legal hold: super administrators place and release holds on a user or a
 * group and run retention (dry or for real); each user reads the policy that applies to them.
 */
export const RETENTION_CALLS = {
  setUserLegalHold: {
    method: 'PUT',
    path: '/admin/users/:id/legal-hold',
    access: 'legal_hold.manage',
    body: LegalHoldBodySchema,
    response: LegalHoldStateSchema,
  },
  setGroupLegalHold: {
    method: 'PUT',
    path: '/admin/user-groups/:id/legal-hold',
    access: 'legal_hold.manage',
    body: LegalHoldBodySchema,
    response: LegalHoldStateSchema,
  },
  listLegalHolds: {
    method: 'GET',
    path: '/admin/legal-holds',
    access: 'legal_hold.manage',
    response: z.array(LegalHoldSchema),
  },
  runRetention: {
    method: 'POST',
    path: '/admin/retention/run',
    access: 'retention.manage',
    body: RetentionRunBodySchema,
    response: RetentionRunResultSchema,
  },
  /** The latest runs, newest first. */
  listRetentionRuns: {
    method: 'GET',
    path: '/admin/retention/runs',
    access: 'retention.manage',
    response: z.array(RetentionRunSchema),
  },
  chatRetention: { method: 'GET', path: '/chat/retention', access: 'chat.use', response: RetentionPolicySchema },
} as const satisfies Record<string, CallSpec>;
