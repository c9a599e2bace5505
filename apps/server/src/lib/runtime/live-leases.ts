import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';

/** How often progress is written: a crash loses at most about this much of it. */
const WRITE_MS = 1_000;

/**
 * Work this process holds under leases (streaming chat answers, API turns). One timer for the
 * whole process, running only while something is followed: each second it writes what the
 * followed work did since (`writeProgress`), and every third of the lease it renews the
 * leases of all of it in one statement (`renew`). Leases are renewed well before they run
 * out, so a slow tick or two cannot lose one; work whose process died keeps its lease until
 * it runs out, and then a sweep settles it by what was written.
 */
export abstract class LiveLeases<T> {
  /** This process, as the owner named on the work it holds. */
  readonly ownerId = crypto.randomUUID();
  /** The work followed, by id, with what the subclass keeps of each. */
  protected readonly followed = new Map<string, T>();
  private timer: NodeJS.Timeout | undefined;
  private tick: Promise<void> | undefined;
  private renewedAt = 0;
  private readonly renewMs: number;

  constructor(
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly leaseMs: number,
    /** Logged when a tick fails. */
    private readonly failure: string,
  ) {
    this.renewMs = leaseMs / 3;
  }

  /** The lease newly opened work starts with. */
  leaseUntil(): string {
    return new Date(this.clock.now().getTime() + this.leaseMs).toISOString();
  }

  /** Stops the timer and waits for a write in progress, so the database may close after. */
  async close(): Promise<void> {
    this.followed.clear();
    this.stopTimer();
    await this.tick;
  }

  /** Writes what the followed work did since the last tick. */
  protected abstract writeProgress(): Promise<void>;

  /** Extends the leases of all followed work (`ids`) to `until`. */
  protected abstract renew(ids: string[], until: string): Promise<void>;

  /** Follows `id` from now; the returned `end` stops following it (before it is settled). */
  protected track(id: string, state: T): () => void {
    this.followed.set(id, state);
    if (!this.timer) {
      this.renewedAt = Date.now();
      this.timer = setInterval(() => this.runTick(), WRITE_MS);
      this.timer.unref();
    }
    return () => {
      this.followed.delete(id);
      if (this.followed.size === 0) this.stopTimer();
    };
  }

  private stopTimer(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private runTick(): void {
    // A database slower than the tick: skip rather than pile writes up.
    if (this.tick) return;
    this.tick = this.writeAll()
      .catch((err: unknown) => this.log.warn({ err }, this.failure))
      .finally(() => {
        this.tick = undefined;
      });
  }

  private async writeAll(): Promise<void> {
    await this.writeProgress();
    if (Date.now() - this.renewedAt >= this.renewMs && this.followed.size > 0) {
      this.renewedAt = Date.now();
      await this.renew([...this.followed.keys()], this.leaseUntil());
    }
  }
}
