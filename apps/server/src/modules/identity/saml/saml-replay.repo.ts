import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../../lib/data/db-errors.js';
import type { AssertionReplayGuard } from './assertion-replay-guard.js';

/** The shape of `saml_seen_assertions` this repo relies on. */
interface SeenAssertionsTables {
  saml_seen_assertions: { provider_id: number; assertion_id: string; expires_at: string };
}

/**
 * Assertion IDs already accepted, in the database every instance shares: the unique key
 * (provider_id, assertion_id) lets exactly one insert win, so two instances handed the
 * same Response at the same moment cannot both accept it.
 */
export class SamlReplayRepo implements AssertionReplayGuard {
  private readonly db: Kysely<SeenAssertionsTables>;
  constructor(db: Kysely<never>) {
    this.db = db as unknown as Kysely<SeenAssertionsTables>;
  }

  async firstUse(providerId: number, assertionId: string, expiresAt: Date): Promise<boolean> {
    try {
      await this.db
        .insertInto('saml_seen_assertions')
        .values({ provider_id: providerId, assertion_id: assertionId, expires_at: expiresAt.toISOString() })
        .execute();
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  /** Forgets assertions past their end of validity: they would be refused as expired anyway. */
  async pruneExpired(now: Date): Promise<number> {
    const result = await this.db
      .deleteFrom('saml_seen_assertions')
      .where('expires_at', '<', now.toISOString())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
