import {
  AUDIT_CHECKPOINT_FORMAT,
  type AuditCheckpoint,
  type AuditCheckpointRecord,
  type AuditVerifyResult,
} from '@aiplatform/contracts';
import type { Kysely } from 'kysely';
import type { AuditCheckpointRow, Database, Db } from '../../db/types.js';
import { type Clock, iso } from '../../lib/runtime/clock.js';
import { AppError } from '../../lib/http/errors.js';
import { checkpointIsGenuine, signCheckpoint } from './audit-checkpoint.js';
import type { AuditCheckpointsRepo } from './audit-checkpoints.repo.js';
import type { AuditKey } from './audit-key.js';
import type { AuditRepo } from './audit.repo.js';
import { verifyAuditChain } from './audit-verify.js';

const DAY_MS = 86_400_000;

/**
 * Signed checkpoints of the audit chain's head. Stored, they let verification notice rows
 * removed from the end with the head wound back, or a chain replaced up to a checkpoint;
 * downloaded and kept elsewhere, they still prove it when the stored ones were removed too.
 */
export class AuditCheckpoints {
  constructor(
    private readonly d: {
      db: Kysely<Database>;
      repo: AuditRepo;
      checkpoints: AuditCheckpointsRepo;
      key: AuditKey;
      clock: Clock;
    },
  ) {}

  /** Signs the head as committed now (an administrator's request). */
  create(createdBy: number): Promise<AuditCheckpointRecord> {
    const now = this.d.clock.now();
    return this.d.db
      .transaction()
      .execute(async (trx) => this.sign(trx, await this.d.repo.lockHead(trx), createdBy, now));
  }

  /**
   * The daily checkpoint (run by the hourly housekeeping on every instance): signed when
   * the newest is a day old and the chain has grown since. The head's lock makes
   * instances running it together take turns, so one of them signs.
   */
  createIfDue(now: Date): Promise<AuditCheckpointRecord | null> {
    return this.d.db.transaction().execute(async (trx) => {
      const head = await this.d.repo.lockHead(trx);
      const newest = await this.d.checkpoints.newest(trx);
      if (head.seq === 0 || newest?.count === head.seq) return null;
      if (newest && Date.parse(newest.created_at) > now.getTime() - DAY_MS) return null;
      return this.sign(trx, head, null, now);
    });
  }

  async list(page: number, limit: number): Promise<{ items: AuditCheckpointRecord[]; total: number }> {
    const { rows, total } = await this.d.checkpoints.page(page, limit);
    return { items: rows.map(toRecord), total };
  }

  /** The chain compared with a checkpoint kept outside the server; one not signed by this server is refused. */
  verifyAgainst(checkpoint: AuditCheckpoint): Promise<AuditVerifyResult> {
    if (!checkpointIsGenuine(this.d.key, checkpoint)) throw new AppError('AUDIT_CHECKPOINT_INVALID');
    return verifyAuditChain(this.d, checkpoint);
  }

  private async sign(
    trx: Db,
    head: { seq: number; hash: string },
    createdBy: number | null,
    now: Date,
  ): Promise<AuditCheckpointRecord> {
    const last = head.seq === 0 ? undefined : await this.d.repo.rowAt(head.seq, trx);
    const statement = signCheckpoint(this.d.key, {
      count: head.seq,
      last_id: last?.id ?? null,
      hash: head.hash,
      created_at: iso(now),
    });
    const { format: _format, ...fields } = statement;
    return toRecord(await this.d.checkpoints.insert(trx, { ...fields, created_by: createdBy }));
  }
}

function toRecord(row: AuditCheckpointRow): AuditCheckpointRecord {
  return {
    format: AUDIT_CHECKPOINT_FORMAT,
    id: row.id,
    count: Number(row.count),
    last_id: row.last_id === null ? null : Number(row.last_id),
    hash: row.hash,
    created_at: row.created_at,
    created_by: row.created_by === null ? null : Number(row.created_by),
    signature: row.signature,
  };
}
