import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/runtime/clock.js';
import type { MessagesRepo } from './messages.repo.js';

/** How long an instance vouches for an answer it streams; past it, any instance may settle the turn. */
export const DEFAULT_ANSWER_LEASE_MS = 30_000;
/** How often the text so far is written: a crash loses at most about this much of an answer. */
const PARTIAL_WRITE_MS = 1_000;
/** Answers written per transaction: one commit for many, but never a long hold on the database. */
const PARTIAL_WRITE_BATCH = 100;

interface Followed {
  text: string;
  written: string;
}

/**
 * The answers this process is writing into the database as they stream. One timer for the
 * whole process: each second it writes the text of every answer that grew (one UPDATE per
 * such answer, never per delta, a hundred to a transaction), and every third of the lease (10 s by default) it renews
 * the leases of all of them in one statement. The timer runs only while something streams.
 */
export class LiveAnswers {
  /** This process, as the owner named on the answers it streams. */
  readonly ownerId = crypto.randomUUID();
  private readonly followed = new Map<string, Followed>();
  private timer: NodeJS.Timeout | undefined;
  private tick: Promise<void> | undefined;
  private renewedAt = 0;
  /** Leases are renewed well before they run out, so a slow tick or two cannot lose one. */
  private readonly renewMs: number;

  constructor(
    private readonly messages: MessagesRepo,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly leaseMs: number,
  ) {
    this.renewMs = leaseMs / 3;
  }

  /** The lease a newly opened answer starts with. */
  leaseUntil(): string {
    return new Date(this.clock.now().getTime() + this.leaseMs).toISOString();
  }

  /** Starts writing an answer's text as it grows; `end` before the answer is settled. */
  follow(answerId: string): { update(text: string): void; end(): void } {
    this.followed.set(answerId, { text: '', written: '' });
    if (!this.timer) {
      this.renewedAt = Date.now();
      this.timer = setInterval(() => this.runTick(), PARTIAL_WRITE_MS);
      this.timer.unref();
    }
    return {
      update: (text) => {
        const f = this.followed.get(answerId);
        if (f) f.text = text;
      },
      end: () => {
        this.followed.delete(answerId);
        if (this.followed.size === 0) this.stopTimer();
      },
    };
  }

  /** Stops the timer and waits for a write in progress, so the database may close after. */
  async close(): Promise<void> {
    this.followed.clear();
    this.stopTimer();
    await this.tick;
  }

  private stopTimer(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private runTick(): void {
    // A database slower than the tick: skip rather than pile writes up.
    if (this.tick) return;
    this.tick = this.writeAll()
      .catch((err: unknown) => this.log.warn({ err }, 'partial answers not written'))
      .finally(() => {
        this.tick = undefined;
      });
  }

  private async writeAll(): Promise<void> {
    const grown: { id: string; content: string; followed: Followed }[] = [];
    for (const [id, f] of this.followed) if (f.text !== f.written) grown.push({ id, content: f.text, followed: f });
    // In batches, so that one transaction never holds SQLite's single connection for long.
    for (let i = 0; i < grown.length; i += PARTIAL_WRITE_BATCH) {
      const batch = grown.slice(i, i + PARTIAL_WRITE_BATCH);
      await this.messages.writePartials(
        this.ownerId,
        batch.map(({ id, content }) => ({ id, content })),
      );
      for (const g of batch) g.followed.written = g.content;
    }
    if (Date.now() - this.renewedAt >= this.renewMs && this.followed.size > 0) {
      this.renewedAt = Date.now();
      await this.messages.renewLeases(this.ownerId, this.leaseUntil());
    }
  }
}
