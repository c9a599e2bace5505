import type { FastifyBaseLogger } from 'fastify';

/** What one round settled: work kept and charged, and work refunded. */
export interface SweepOutcome {
  charged: number;
  refunded: number;
}

/**
 * Settles leased work (chat answers, API turns) whose owning instance is gone: at start and
 * every half lease, on every instance, so work whose owner died is settled within one and a
 * half leases. Each settlement is conditional on the lease still being expired, so a round
 * running on two instances at once settles each piece only once. A round still running when
 * the next one is due is not doubled.
 */
export class LeaseSweep {
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<unknown> | undefined;

  constructor(
    /** One round's settling; what it settled. */
    private readonly settle: () => Promise<SweepOutcome>,
    private readonly log: FastifyBaseLogger,
    /** The lease; a round every half of it. */
    private readonly leaseMs: number,
    /** What is swept, as the log names it ("chat turns"). */
    private readonly what: string,
  ) {}

  /** One round; resolves to how many it settled. */
  async sweep(): Promise<number> {
    const { charged, refunded } = await this.settle();
    if (charged + refunded > 0) {
      this.log.warn({ charged, refunded }, `settled ${this.what} whose instance stopped before finishing them`);
    }
    return charged + refunded;
  }

  start(): void {
    this.timer = setInterval(() => {
      if (this.round) return;
      this.round = this.sweep()
        .catch((err: unknown) => this.log.warn({ err }, `sweep of abandoned ${this.what} failed`))
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
