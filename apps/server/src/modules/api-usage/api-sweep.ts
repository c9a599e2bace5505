import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/runtime/clock.js';
import type { ApiAccounting } from './api-accounting.js';

const BATCH = 200;

/**
 * Settles API turns whose instance is gone, as the chat's answer sweep does for answers:
 * at start and every half lease, on every instance; each settlement is conditional on the
 * lease still being expired, so it happens once.
 */
export class ApiTurnSweep {
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<unknown> | undefined;

  constructor(
    private readonly accounting: ApiAccounting,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly leaseMs: number,
  ) {}

  /** One round; resolves to how many turns it settled. */
  async sweep(): Promise<number> {
    const { charged, refunded } = await this.accounting.settleAbandoned(this.clock.now().toISOString(), BATCH);
    if (charged + refunded > 0) {
      this.log.warn({ charged, refunded }, 'settled API turns whose instance stopped before finishing them');
    }
    return charged + refunded;
  }

  start(): void {
    this.timer = setInterval(() => {
      if (this.round) return;
      this.round = this.sweep()
        .catch((err: unknown) => this.log.warn({ err }, 'sweep of abandoned API turns failed'))
        .finally(() => {
          this.round = undefined;
        });
    }, this.leaseMs / 2);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.round;
  }
}
