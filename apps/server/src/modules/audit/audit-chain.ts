import crypto from 'node:crypto';
import type { AuditLogRow } from '../../db/types.js';
import type { AuditKey } from './audit-key.js';

export const GENESIS_HASH = '0'.repeat(64);

/** The fields a row's hash covers: everything it says, in a fixed order. */
export type HashedRow = Omit<AuditLogRow, 'id' | 'hash'>;

function contentOf(row: HashedRow): string {
  return JSON.stringify([
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
}

/**
 * The hash of rows written before the chain was keyed: sha256 over the previous row's
 * hash and this row's content. Anyone can recompute it, so it shows accidents and edits
 * by hand, but not a rewrite that recomputes every hash after the change.
 */
export function plainAuditHash(row: HashedRow): string {
  return crypto.createHash('sha256').update(row.prev_hash).update('\n').update(contentOf(row)).digest('hex');
}

/** The hash of keyed rows: HMAC-SHA256 under the audit key over the same input. */
export function keyedAuditHash(key: AuditKey, row: HashedRow): string {
  return key.mac('row', `${row.prev_hash}\n${contentOf(row)}`);
}

/**
 * The hash a row must carry: plain before the chain's cut-over (`keyedFrom`, the first
 * keyed sequence number), keyed from it on. Changing, removing or reordering any row
 * breaks every hash from there on, and a keyed hash cannot be recomputed without the key.
 */
export function expectedAuditHash(key: AuditKey, keyedFrom: number, row: HashedRow): string {
  return Number(row.seq) < keyedFrom ? plainAuditHash(row) : keyedAuditHash(key, row);
}

/**
 * The seal of the cut-over: where keyed rows start and the hash they start from (the last
 * plain row's, or the genesis hash). Without it, someone could move the cut-over to the
 * end and recompute the whole chain in the plain format.
 */
export function keyedFromSeal(key: AuditKey, keyedFrom: number, prevHash: string): string {
  return key.mac('keyed-from', `${keyedFrom}\n${prevHash}`);
}
