import { LIMITS } from '@aiplatform/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { addSeconds, iso } from '../../lib/runtime/clock.js';
import { EmailCodeRepo } from './email-code.repo.js';
import { LoginAttemptsRepo } from './login-attempts.repo.js';
import { SessionRepo } from './session.repo.js';
import { IdempotencyRepo } from '../audit/idempotency.repo.js';

/** Deletes what the auth rules no longer look at, so these tables stay small (run hourly by the housekeeping). */
export async function pruneAuthData(db: Kysely<Database>, now: Date): Promise<void> {
  await new LoginAttemptsRepo(db).pruneBefore(iso(addSeconds(now, -2 * LIMITS.loginAttemptWindowSeconds)));
  await new EmailCodeRepo(db).pruneExpiredBefore(iso(addSeconds(now, -86_400)));
  await new SessionRepo(db).pruneExpiredTokens(iso(now));
  // A repeated Idempotency-Key is honoured for a day; older keys serve nothing.
  await new IdempotencyRepo(db).pruneBefore(iso(addSeconds(now, -86_400)));
}
