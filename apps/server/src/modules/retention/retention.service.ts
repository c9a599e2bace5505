import crypto from 'node:crypto';
import type { RetentionPolicy, RetentionRun, RetentionRunResult } from '@aiplatform/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Clock } from '../../lib/runtime/clock.js';
import { AppError } from '../../lib/http/errors.js';
import type { Actor } from '../../policies/actor.js';
import { authorize } from '../../policies/policy.js';
import type { MessageFilesRepo, ReleasedFile } from '../chat/message-files.repo.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { JobLocksRepo } from './job-locks.repo.js';
import type { RetentionCutoffs, RetentionRepo } from './retention.repo.js';

const DAY_MS = 86_400_000;
const LOCK = 'retention';
/** How long a run holds the lock between renewals (each batch renews it). */
const LEASE_MS = 5 * 60_000;
/** Conversations deleted per transaction: short transactions, so chat traffic never waits long. */
export const RETENTION_BATCH = 200;
/** The hourly housekeeping starts the daily run once this long has passed since the last one. */
const DAILY_AFTER_MS = DAY_MS - 30 * 60_000;

/** A dry run's batch is rolled back: this carries what it would have done out of the transaction. */
class DryRunRollback extends Error {
  constructor(readonly outcome: Batch) {
    super('dry run');
  }
}
interface Batch {
  ids: string[];
  deleted: number;
  released: ReleasedFile[];
}

/**
 * Retention: conversations untouched for the owner's days (their group's, else the site's)
 * are deleted with their files, except pinned ones and any of a user under legal hold.
 * Credit and usage rows are not touched, so balances, statistics and charge-back stay exact.
 * One run at a time across every instance (a lease row); each batch is its own transaction.
 */
export class RetentionService {
  constructor(
    private readonly d: {
      db: Kysely<Database>;
      repo: RetentionRepo;
      locks: JobLocksRepo;
      messageFiles: MessageFilesRepo;
      /** Deletes released files' bytes once their rows are gone. */
      removeBlobs: (released: readonly ReleasedFile[]) => Promise<void>;
      settings: SettingsService;
      clock: Clock;
    },
  ) {}

  /** The days that apply to a user: their group's own, else the site's; null keeps forever. */
  async policyFor(userId: number): Promise<RetentionPolicy> {
    const own = await this.d.repo.groupDaysOf(userId);
    return { days: own ?? (await this.d.settings.getSettings()).retention.days };
  }

  /** POST /admin/retention/run: now, dry or for real; refused while another run holds the lock. */
  async runNow(actor: Actor, dryRun: boolean): Promise<RetentionRunResult> {
    authorize(actor, 'retention.manage');
    const result = await this.locked((renew) => this.run(dryRun, actor.id, renew));
    if (!result) throw new AppError('RETENTION_RUNNING');
    return result;
  }

  /**
   * The daily run, offered by every instance's hourly housekeeping: whichever takes the lock
   * first runs it when a day has passed since the last; the others skip. Null when skipped.
   */
  async runDaily(): Promise<RetentionRunResult | null> {
    const result = await this.locked(async (renew) => {
      const last = await this.d.repo.lastJobStart();
      if (last && this.d.clock.now().getTime() - Date.parse(last) < DAILY_AFTER_MS) return null;
      return this.run(false, null, renew);
    });
    return result ?? null;
  }

  async latestRuns(actor: Actor): Promise<RetentionRun[]> {
    authorize(actor, 'retention.manage');
    const rows = await this.d.repo.latestRuns(10);
    return rows.map((r) => ({
      id: r.id,
      started_at: r.started_at,
      finished_at: r.finished_at,
      dry_run: r.dry_run === 1,
      status: r.status,
      conversations: r.conversations,
      files: r.files,
      started_by: r.started_by,
      started_by_name: r.started_by_name,
    }));
  }

  /** Runs `work` holding the cluster-wide lock (a fresh owner: never shared with another run); undefined when taken. */
  private async locked<T>(work: (renew: () => Promise<void>) => Promise<T>): Promise<T | undefined> {
    const owner = crypto.randomUUID();
    const until = () => new Date(this.d.clock.now().getTime() + LEASE_MS).toISOString();
    const now = this.d.clock.now().toISOString();
    if (!(await this.d.locks.acquire(LOCK, owner, now, until()))) return undefined;
    try {
      return await work(async () => {
        // A run that lost its lock (stalled past its lease) stops rather than run beside another.
        if (!(await this.d.locks.renew(LOCK, owner, until()))) throw new Error('retention lock lost');
      });
    } finally {
      await this.d.locks.release(LOCK, owner, this.d.clock.now().toISOString());
    }
  }

  private async cutoffs(now: Date): Promise<RetentionCutoffs> {
    const cut = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
    const site = (await this.d.settings.getSettings()).retention.days;
    const groups = await this.d.repo.groupDays();
    return {
      site: site === null ? null : cut(site),
      groups: groups.map((g) => ({ groupId: g.id, cutoff: cut(g.retention_days ?? 0) })),
    };
  }

  /** One run, recorded with what it deleted (or, dry, would delete). */
  private async run(
    dryRun: boolean,
    startedBy: number | null,
    renew: () => Promise<void>,
  ): Promise<RetentionRunResult> {
    const now = this.d.clock.now();
    const runId = await this.d.repo.startRun(dryRun, startedBy, now.toISOString());
    const counts = { conversations: 0, files: 0 };
    try {
      const cutoffs = await this.cutoffs(now);
      let after = '';
      for (;;) {
        const batch = await this.batch(cutoffs, after, dryRun);
        counts.conversations += batch.deleted;
        counts.files += batch.released.length;
        if (!dryRun) await this.d.removeBlobs(batch.released);
        if (batch.ids.length < RETENTION_BATCH) break;
        after = batch.ids.at(-1)!;
        await renew();
      }
      await this.d.repo.finishRun(runId, 'done', counts, this.d.clock.now().toISOString());
      return counts;
    } catch (err) {
      await this.d.repo.finishRun(runId, 'failed', counts, this.d.clock.now().toISOString());
      throw err;
    }
  }

  /**
   * One transaction: the next batch of conversations deleted, and the files no remaining
   * message lists released (their bytes go after the commit). A dry run does the same and
   * rolls it back, so its counts are exactly what a real run would delete.
   */
  private async batch(cutoffs: RetentionCutoffs, after: string, dryRun: boolean): Promise<Batch> {
    try {
      return await this.d.db.transaction().execute(async (trx) => {
        const ids = (await this.d.repo.candidates(trx, cutoffs, after, RETENTION_BATCH)).map((r) => r.id);
        const files = await this.d.repo.fileIdsOf(trx, ids);
        const deleted = await this.d.repo.deleteConversations(trx, ids);
        const released = await this.d.messageFiles.releaseUnused(trx, files);
        if (dryRun) throw new DryRunRollback({ ids, deleted, released });
        return { ids, deleted, released };
      });
    } catch (err) {
      if (err instanceof DryRunRollback) return err.outcome;
      throw err;
    }
  }
}
