import crypto from 'node:crypto';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/runtime/clock.js';
import type { ClaimedFile, DocumentJobsRepo } from './document-jobs.repo.js';
import type { ExtractionPool } from './extraction-pool.js';
import { formatOfName } from './formats/detect-format.js';

/** A document whose reading killed or outlived its worker this many times fails for good. */
export const MAX_ATTEMPTS = 3;
/** How often an idle instance looks for documents (uploaded elsewhere, or left by a dead instance). */
const POLL_MS = 1_000;

/**
 * The instance's share of the extraction queue: it takes waiting documents (at most as many
 * at once as the pool has threads), keeps their leases alive while its workers read them,
 * and stores each result or failure. An upload here wakes it at once; otherwise it looks
 * every second, which is also how documents left by a killed instance are taken over once
 * their lease has run out.
 */
export class DocumentJobs {
  /** This instance, as the owner written on the documents it reads. */
  readonly ownerId = crypto.randomUUID();
  private readonly working = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private renewTimer: NodeJS.Timeout | undefined;
  private claiming: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly repo: DocumentJobsRepo,
    private readonly pool: ExtractionPool,
    private readonly uploadsDir: string,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly leaseMs: number,
  ) {}

  /** Starts looking for work (right away, then every second). */
  start(): void {
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
    // Renewed well before they run out, so a slow round cannot lose a lease.
    this.renewTimer = setInterval(() => void this.renew(), this.leaseMs / 3);
    this.renewTimer.unref();
    this.kick();
  }

  /** Looks for work now (after an upload on this instance). */
  kick(): void {
    if (this.stopping.signal.aborted) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.claiming = this.fill()
      .catch((err: unknown) => this.log.warn({ err }, 'taking documents to read failed'))
      .finally(() => {
        this.claiming = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Stops taking work, abandons the documents being read (given back to the queue) and waits for that. */
  async stop(): Promise<void> {
    this.stopping.abort();
    clearInterval(this.timer);
    clearInterval(this.renewTimer);
    await this.claiming;
    await Promise.all(this.working.values());
  }

  private async fill(): Promise<void> {
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

  private leaseUntil(): string {
    return new Date(this.clock.now().getTime() + this.leaseMs).toISOString();
  }

  private async renew(): Promise<void> {
    try {
      await this.repo.renew(this.ownerId, [...this.working.keys()], this.leaseUntil());
    } catch (err) {
      this.log.warn({ err }, 'renewing document leases failed');
    }
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
