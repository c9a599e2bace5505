import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/runtime/clock.js';
import { LeaseSweep } from '../../lib/runtime/lease-sweep.js';
import type { TurnAccounting } from './turn-accounting.js';

/** Turns settled per round; more wait for the next one. */
const BATCH = 200;

/**
 * Settles chat turns whose owning instance is gone: at start and every half lease (15 s by
 * default), on every instance, so a turn whose owner died is settled within one and a half
 * leases (45 s by default). Answers without a lease (streamed before leases existed) count
 * as gone once older than the longest possible answer plus a margin.
 */
export class AnswerSweep extends LeaseSweep {
  constructor(
    accounting: TurnAccounting,
    clock: Clock,
    log: FastifyBaseLogger,
    longestAnswerMs: number,
    /** The answer lease; a round every half of it. */
    leaseMs: number,
  ) {
    const settle = () => {
      const now = clock.now();
      return accounting.settleAbandoned(
        {
          leaseExpiredAt: now.toISOString(),
          unleasedBefore: new Date(now.getTime() - longestAnswerMs - 60_000).toISOString(),
        },
        BATCH,
      );
    };
    super(settle, log, leaseMs, 'chat turns');
  }
}
