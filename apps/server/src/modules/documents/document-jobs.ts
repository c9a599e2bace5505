import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/runtime/clock.js';
import type { ClaimedFile, DocumentJobsRepo } from './document-jobs.repo.js';
import type { ExtractionPool } from './extraction-pool.js';
import { formatOfName } from './formats/detect-format.js';
import { LeaseRunner } from './lease-runner.js';

/** A document whose reading killed or outlived its worker this many times fails for good. */
export const MAX_ATTEMPTS = 3;

/**
 * The instance's share of the extraction queue: it takes waiting documents (at most as many
 * at once as the pool has threads), keeps their leases alive while its workers read them,
 * and stores each result or failure. An upload here wakes it at once; otherwise it looks
 * every second, which is also how documents left by a killed instance are taken over once
 * their lease has run out.
 */
export class DocumentJobs extends LeaseRunner {
  private readonly working = new Map<string, Promise<void>>();

  constructor(
    private readonly repo: DocumentJobsRepo,
    private readonly pool: ExtractionPool,
    private readonly uploadsDir: string,
    clock: Clock,
    log: FastifyBaseLogger,
    leaseMs: number,
  ) {
    super({
      clock,
      log,
      leaseMs,
      failures: { round: 'taking documents to read failed', renew: 'renewing document leases failed' },
      // A document finished frees a thread: whoever kicks during a round gets another one.
      kickAgain: true,
    });
  }

  /** Takes documents while threads are free; each, once read, frees its thread and looks for more. */
  protected async runRound(): Promise<void> {
    while (this.working.size < this.pool.threads && !this.stopping.signal.aborted) {
      const now = this.clock.now();
      const file = await this.repo.claim(this.ownerId, now.toISOString(), this.leaseUntil());
      if (!file) return;
      const job = this.run(file).finally(() => {
        this.working.delete(file.id);
        this.kick();
      });
      this.working.set(file.id, job);
    }
  }

  protected held(): string[] {
    return [...this.working.keys()];
  }

  protected renewLeases(ids: string[], until: string): Promise<void> {
    return this.repo.renew(this.ownerId, ids, until);
  }

  /** The documents being read, which stop gives back to the queue. */
  protected override async inHand(): Promise<void> {
    await Promise.all(this.working.values());
  }

  private async run(file: ClaimedFile): Promise<void> {
    try {
      const format = formatOfName(file.original_name)?.format;
      if (!format || file.job_attempts > MAX_ATTEMPTS) {
        await this.repo.fail(this.ownerId, file.id, 'FILE_UNREADABLE');
        return;
      }
      const input = { path: path.join(this.uploadsDir, path.basename(file.stored_name)), format };
      const out = await this.pool.extract(input, this.stopping.signal);
      if (out.ok) await this.repo.finish(this.ownerId, file.id, out);
      else {
        this.log.info({ fileId: file.id, code: out.code, reason: out.reason }, 'document could not be read');
        await this.repo.fail(this.ownerId, file.id, out.code);
      }
    } catch (err) {
      const closing = this.stopping.signal.aborted;
      if (!closing) this.log.warn({ err, fileId: file.id }, 'reading a document failed; it goes back to the queue');
      await this.repo
        .release(this.ownerId, file.id, closing)
        .catch((e: unknown) => this.log.warn({ err: e }, 'giving a document back failed'));
    }
  }
}
