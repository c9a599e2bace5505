import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/runtime/clock.js';
import type { ApiTurnsRepo } from './api-turns.repo.js';

/** How often turns that produced output are marked so (a crash loses at most about this). */
const MARK_MS = 1_000;

/**
 * The API turns this process is serving, under its leases. One timer for the process,
 * running only while a turn is in progress: each second it marks the turns that began
 * producing output (one statement), and every third of the lease it renews the leases of
 * all of them (one statement). A turn whose process died keeps its lease until it runs
 * out; then the sweep settles it by what was marked.
 */
export class ApiTurnsLive {
  readonly ownerId = crypto.randomUUID();
  private readonly turns = new Map<string, { produced: boolean; marked: boolean }>();
  private timer: NodeJS.Timeout | undefined;
  private tick: Promise<void> | undefined;
  private renewedAt = 0;

  constructor(
    private readonly repo: ApiTurnsRepo,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly leaseMs: number,
  ) {}

  leaseUntil(): string {
    return new Date(this.clock.now().getTime() + this.leaseMs).toISOString();
  }

  /** Follows a reserved turn until `end`, called before it is settled. */
  follow(id: string): { produced(): void; end(): void } {
    this.turns.set(id, { produced: false, marked: false });
    if (!this.timer) {
      this.renewedAt = Date.now();
      this.timer = setInterval(() => this.runTick(), MARK_MS);
      this.timer.unref();
    }
    return {
      produced: () => {
        const t = this.turns.get(id);
        if (t) t.produced = true;
      },
      end: () => {
        this.turns.delete(id);
        if (this.turns.size === 0) this.stopTimer();
      },
    };
  }

  async close(): Promise<void> {
    this.turns.clear();
    this.stopTimer();
    await this.tick;
  }

  private stopTimer(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private runTick(): void {
    if (this.tick) return;
    this.tick = this.writeAll()
      .catch((err: unknown) => this.log.warn({ err }, 'API turns: leases not renewed'))
      .finally(() => {
        this.tick = undefined;
      });
  }

  private async writeAll(): Promise<void> {
    const fresh = [...this.turns].filter(([, t]) => t.produced && !t.marked);
    if (fresh.length > 0) {
      await this.repo.markProduced(
        this.ownerId,
        fresh.map(([id]) => id),
      );
      for (const [, t] of fresh) t.marked = true;
    }
    if (Date.now() - this.renewedAt >= this.leaseMs / 3 && this.turns.size > 0) {
      this.renewedAt = Date.now();
      await this.repo.renewLeases(this.ownerId, [...this.turns.keys()], this.leaseUntil());
    }
  }
}
