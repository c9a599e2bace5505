import crypto from 'node:crypto';
import type { AuditLogRow } from '../../db/types.js';

export const GENESIS_HASH = '0'.repeat(64);

/** The fields a row's hash covers: everything it says, in a fixed order. */
type Hashed = Omit<AuditLogRow, 'id' | 'hash'>;

/**
 * sha256 over the previous row's hash and this row's content. Changing, removing or
 * reordering any stored row breaks every hash from there on.
 */
export function auditHash(row: Hashed): string {
  const content = JSON.stringify([
    row.seq,
    row.actor_id,
    row.actor_username,
    row.action,
    row.target_type,
    row.target_id,
    row.changes,
    row.ip,
    row.request_id,
    row.created_at,
  ]);
  return crypto.createHash('sha256').update(row.prev_hash).update('\n').update(content).digest('hex');
}
