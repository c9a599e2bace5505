import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/runtime/clock.js';
import type { TurnAccounting } from './turn-accounting.js';

/** Turns settled per round; more wait for the next one. */
const BATCH = 200;

/**
 * Settles chat turns whose owning instance is gone: at start and every half lease (15 s by
 * default), on every instance, so a turn whose owner died is settled within one and a half
 * leases (45 s by default). Answers without a lease (streamed before leases existed) count
 * as gone once older than the longest possible answer plus a margin.
 */
export class AnswerSweep {
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<unknown> | undefined;

  constructor(
    private readonly accounting: TurnAccounting,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly longestAnswerMs: number,
    /** The answer lease; a round every half of it. */
    private readonly leaseMs: number,
  ) {}

  /** One round; resolves to how many turns it settled. */
  async sweep(): Promise<number> {
    const now = this.clock.now();
    const { charged, refunded } = await this.accounting.settleAbandoned(
      {
        leaseExpiredAt: now.toISOString(),
        unleasedBefore: new Date(now.getTime() - this.longestAnswerMs - 60_000).toISOString(),
      },
      BATCH,
    );
    if (charged + refunded > 0) {
      this.log.warn({ charged, refunded }, 'settled chat turns whose instance stopped before finishing them');
    }
    return charged + refunded;
  }

  start(): void {
    this.timer = setInterval(() => {
      if (this.round) return;
      this.round = this.sweep()
        .catch((err: unknown) => this.log.warn({ err }, 'sweep of abandoned chat turns failed'))
        .finally(() => {
          this.round = undefined;
        });
    }, this.leaseMs / 2);
    this.timer.unref();
  }

  /** Stops the timer and waits for a round in progress, so the database may close after. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.round;
  }
}
