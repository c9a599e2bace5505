import type { AuditFilter, AuditLog, AuditVerifyResult } from '@aiplatform/contracts';
import type { AuditLogRow } from '../../db/types.js';
import type { AdminContext } from '../../policies/actor.js';
import type { Db } from '../users/users.repo.js';
import { auditHash } from './audit-chain.js';
import type { AuditRepo } from './audit.repo.js';
import { redact } from './redact.js';

export interface AuditEntry {
  action: string;
  targetType: string;
  targetId: string | number | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

const BATCH = 1000;

/** The append-only, hash-chained record of every administrative change. */
export class AuditService {
  constructor(private readonly repo: AuditRepo) {}

  /**
   * Appends one row inside the transaction of the change it describes, so the change
   * and its record commit or roll back together. Call it last in the transaction: it
   * locks the chain head, and taking that lock last keeps lock order consistent.
   */
  async record(trx: Db, ctx: AdminContext, entry: AuditEntry, now: string): Promise<void> {
    const { seq, prevHash } = await this.repo.advanceHead(trx);
    const changes = JSON.stringify(redact({ before: entry.before ?? null, after: entry.after ?? null }));
    const row = {
      seq,
      actor_id: ctx.actor.id,
      actor_username: ctx.actor.username,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId === null ? null : String(entry.targetId),
      changes,
      ip: ctx.ip,
      request_id: ctx.requestId,
      created_at: now,
      prev_hash: prevHash,
    };
    await this.repo.append(trx, { ...row, hash: auditHash(row) });
  }

  async list(f: AuditFilter, page: number, limit: number): Promise<{ items: AuditLog[]; total: number }> {
    const { rows, total } = await this.repo.page(f, page, limit);
    return { items: rows.map(toAuditLog), total };
  }

  /**
   * Recomputes every hash from the first row on; names the first row that does not fit.
   * The chain head read first bounds the check (rows appended meanwhile wait for the next
   * run) and shows rows removed from the end, which leave no gap behind them.
   */
  async verify(): Promise<AuditVerifyResult> {
    const head = await this.repo.head();
    let prev = '0'.repeat(64);
    let expectedSeq = 1;
    let checked = 0;
    let lastId: number | null = null;
    for (let rows = await this.repo.batchAfter(0, BATCH); rows.length > 0;) {
      for (const row of rows) {
        if (Number(row.seq) > head.seq) break;
        const { id: _id, hash, ...content } = row;
        // A deleted row shows as a gap in the sequence; an edited one as a hash mismatch.
        if (Number(row.seq) !== expectedSeq || row.prev_hash !== prev || auditHash(content) !== hash) {
          return { valid: false, checked, broken_at: row.id };
        }
        prev = hash;
        lastId = row.id;
        expectedSeq += 1;
        checked += 1;
      }
      if (expectedSeq > head.seq) break;
      rows = await this.repo.batchAfter(Number(rows.at(-1)?.seq), BATCH);
    }
    // The newest rows were removed (fewer rows than the head counts), or the newest row was rewritten.
    if (checked !== head.seq) return { valid: false, checked, broken_at: null };
    if (prev !== head.hash) return { valid: false, checked: checked - 1, broken_at: lastId };
    return { valid: true, checked, broken_at: null };
  }

  /** Every matching row in chain order, a batch at a time (for the CSV export). */
  async *iterate(f: AuditFilter): AsyncGenerator<AuditLog> {
    let after = 0;
    for (;;) {
      const rows = await this.repo.batchAfter(after, BATCH, f);
      if (rows.length === 0) return;
      for (const row of rows) yield toAuditLog(row);
      after = Number(rows.at(-1)?.seq);
    }
  }
}

function toAuditLog(row: AuditLogRow): AuditLog {
  return {
    id: row.id,
    actor_id: row.actor_id,
    actor_username: row.actor_username,
    action: row.action,
    target_type: row.target_type,
    target_id: row.target_id,
    changes: JSON.parse(row.changes) as AuditLog['changes'],
    ip: row.ip,
    request_id: row.request_id,
    created_at: row.created_at,
  };
}
