import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/runtime/clock.js';
import { LeaseSweep } from '../../lib/runtime/lease-sweep.js';
import type { ApiAccounting } from './api-accounting.js';

const BATCH = 200;

/**
 * Settles API turns whose instance is gone, as the chat's answer sweep does for answers:
 * at start and every half lease, on every instance; each settlement is conditional on the
 * lease still being expired, so it happens once.
 */
export class ApiTurnSweep extends LeaseSweep {
  constructor(accounting: ApiAccounting, clock: Clock, log: FastifyBaseLogger, leaseMs: number) {
    super(() => accounting.settleAbandoned(clock.now().toISOString(), BATCH), log, leaseMs, 'API turns');
  }
}
