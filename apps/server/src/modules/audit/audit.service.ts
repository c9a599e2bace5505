import type { AuditFilter, AuditLog, AuditVerifyResult } from '@aiplatform/contracts';
import type { AuditLogRow, Db } from '../../db/types.js';
import type { AdminContext } from '../../policies/actor.js';
import { keyedAuditHash } from './audit-chain.js';
import type { AuditCheckpointsRepo } from './audit-checkpoints.repo.js';
import type { AuditKey } from './audit-key.js';
import type { AuditRepo } from './audit.repo.js';
import { verifyAuditChain } from './audit-verify.js';
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
  private readonly repo: AuditRepo;

  constructor(private readonly d: { repo: AuditRepo; checkpoints: AuditCheckpointsRepo; key: AuditKey }) {
    this.repo = d.repo;
  }

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
    // Every new row is keyed: the cut-over was set below every row written since the key.
    await this.repo.append(trx, { ...row, hash: keyedAuditHash(this.d.key, row) });
  }

  async list(f: AuditFilter, page: number, limit: number): Promise<{ items: AuditLog[]; total: number }> {
    const { rows, total } = await this.repo.page(f, page, limit);
    return { items: rows.map(toAuditLog), total };
  }

  /** The chain checked row by row, then against every stored checkpoint. */
  verify(): Promise<AuditVerifyResult> {
    return verifyAuditChain(this.d);
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
