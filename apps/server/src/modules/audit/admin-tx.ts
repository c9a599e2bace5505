import crypto from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import { type Clock, iso } from '../../lib/runtime/clock.js';
import { AppError } from '../../lib/http/errors.js';
import { isUniqueViolation } from '../../lib/data/db-errors.js';
import type { AdminContext } from '../../policies/actor.js';
import type { AuditEntry, AuditService } from './audit.service.js';
import type { IdempotencyRepo } from './idempotency.repo.js';

/** What an area needs to build its own AdminTransactions (the audit log and the stored answers of Idempotency-Keys). */
export interface AdminRecords {
  audit: AuditService;
  idempotency: IdempotencyRepo;
}

export interface AdminWork<T> {
  result: T;
  /** What the audit log records about this change (one row each). */
  audit: AuditEntry | AuditEntry[];
}

export interface IdempotencyOptions {
  /** The client's Idempotency-Key header, when it sent one. */
  key?: string | undefined;
  /** What the request asked for; the same key with another request is refused. */
  request: unknown;
}

/**
 * Runs an administrative change as one transaction that also writes its audit rows,
 * so a change is never without its record. With an Idempotency-Key the first answer is
 * stored with the key in that same transaction; a repeat returns it unchanged.
 */
export class AdminTransactions {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditService,
    private readonly keys: IdempotencyRepo,
    private readonly clock: Clock,
    /** Told after every committed change (caches that hold what it may have changed). */
    private readonly afterCommit?: () => Promise<void>,
  ) {}

  async run<T>(
    ctx: AdminContext,
    work: (trx: Transaction<Database>, now: string) => Promise<AdminWork<T>>,
    idempotency?: IdempotencyOptions,
  ): Promise<T> {
    const now = iso(this.clock.now());
    const key = idempotency?.key;
    const fingerprint = crypto
      .createHash('sha256')
      .update(JSON.stringify(idempotency?.request ?? null))
      .digest('hex');
    try {
      const result = await this.db.transaction().execute(async (trx) => {
        if (key) await this.keys.claim(trx, ctx.actor.id, key, fingerprint, now);
        const { result, audit } = await work(trx, now);
        for (const entry of Array.isArray(audit) ? audit : [audit]) await this.audit.record(trx, ctx, entry, now);
        if (key) await this.keys.saveResponse(trx, ctx.actor.id, key, JSON.stringify(result));
        return result;
      });
      await this.afterCommit?.();
      return result;
    } catch (err) {
      if (!key || !isUniqueViolation(err)) throw err;
      const first = await this.keys.find(ctx.actor.id, key);
      if (!first || first.fingerprint !== fingerprint || first.response === null) {
        throw new AppError('IDEMPOTENCY_KEY_REUSED');
      }
      return JSON.parse(first.response) as T;
    }
  }
}
