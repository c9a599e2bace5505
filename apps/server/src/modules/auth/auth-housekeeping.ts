import { LIMITS } from '@aiplatform/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { type Clock, addSeconds, iso } from '../../lib/clock.js';
import { EmailCodeRepo } from './email-code.repo.js';
import { LoginAttemptsRepo } from './login-attempts.repo.js';
import { SessionRepo } from './session.repo.js';
import { IdempotencyRepo } from '../admin/idempotency.repo.js';

const HOUR_MS = 3_600_000;

/** Deletes what the auth rules no longer look at, so these tables stay small. */
export async function pruneAuthData(db: Kysely<Database>, now: Date): Promise<void> {
  await new LoginAttemptsRepo(db).pruneBefore(iso(addSeconds(now, -2 * LIMITS.loginAttemptWindowSeconds)));
  await new EmailCodeRepo(db).pruneExpiredBefore(iso(addSeconds(now, -86_400)));
  await new SessionRepo(db).pruneExpiredTokens(iso(now));
  // A repeated Idempotency-Key is honoured for a day; older keys serve nothing.
  await new IdempotencyRepo(db).pruneBefore(iso(addSeconds(now, -86_400)));
}

/** Runs the pruning hourly (not at start, which must stay fast); returns the stopper. */
export function scheduleAuthHousekeeping(db: Kysely<Database>, clock: Clock, log: FastifyBaseLogger): () => void {
  const timer = setInterval(() => {
    pruneAuthData(db, clock.now()).catch((err: unknown) => log.warn({ err }, 'auth housekeeping failed'));
  }, HOUR_MS);
  timer.unref();
  return () => clearInterval(timer);
}
