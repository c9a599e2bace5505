import type { Insertable, Kysely } from 'kysely';
import type { Database, Db, SsoPreviewsTable } from '../../db/types.js';
import { isUniqueViolation } from '../../lib/data/db-errors.js';

export interface SsoStateRow {
  provider_id: number;
  nonce: string;
  code_verifier: string;
  redirect: string;
  expires_at: string;
  /** The administrator a test sign-in is for; null for a real sign-in. */
  preview_for: number | null;
  /** SHA-256 of the starting tab's binding value; null when the start sent none. */
  binding_hash: string | null;
}

export interface ExchangeCodeRow {
  user_id: number;
  provider_id: number;
  expires_at: string;
  binding_hash: string | null;
}

/**
 * The short-lived, single-use rows of a sign-in: the start→callback state, the callback's
 * exchange code, an administrator's test sign-in result and the SAML assertion ids already accepted. In the database, so whichever
 * instance a request reaches finds them. A row is taken by deleting it: of two requests
 * presenting the same value, only the one whose delete returned the row goes on.
 */
export class SsoTicketsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insertState(stateHash: string, row: SsoStateRow): Promise<void> {
    await this.db
      .insertInto('sso_states')
      .values({ state_hash: stateHash, ...row })
      .execute();
  }

  /** Removes and answers the state (whether or not it expired: the caller checks). */
  takeState(stateHash: string): Promise<SsoStateRow | undefined> {
    return this.db
      .deleteFrom('sso_states')
      .where('state_hash', '=', stateHash)
      .returning(['provider_id', 'nonce', 'code_verifier', 'redirect', 'expires_at', 'preview_for', 'binding_hash'])
      .executeTakeFirst();
  }

  async insertExchangeCode(codeHash: string, row: ExchangeCodeRow): Promise<void> {
    await this.db
      .insertInto('sso_exchange_codes')
      .values({ code_hash: codeHash, ...row })
      .execute();
  }

  takeExchangeCode(codeHash: string): Promise<ExchangeCodeRow | undefined> {
    return this.db
      .deleteFrom('sso_exchange_codes')
      .where('code_hash', '=', codeHash)
      .returning(['user_id', 'provider_id', 'expires_at', 'binding_hash'])
      .executeTakeFirst();
  }

  async insertPreview(row: Insertable<SsoPreviewsTable>): Promise<void> {
    await this.db.insertInto('sso_previews').values(row).execute();
  }

  /**
   * Removes and answers a preview only for the administrator and provider it belongs to: a
   * code presented by anybody else is left untouched (and refused by the caller).
   */
  takePreview(
    codeHash: string,
    userId: number,
    providerId: number,
    db: Db = this.db,
  ): Promise<{ result: string; expires_at: string } | undefined> {
    return db
      .deleteFrom('sso_previews')
      .where('code_hash', '=', codeHash)
      .where('user_id', '=', userId)
      .where('provider_id', '=', providerId)
      .returning(['result', 'expires_at'])
      .executeTakeFirst();
  }

  /**
   * Records a SAML assertion id as used; false when it was already (a replay). The unique
   * index decides between two instances receiving the same assertion at once.
   */
  async claimAssertion(providerId: number, assertionId: string, expiresAt: string): Promise<boolean> {
    try {
      await this.db
        .insertInto('saml_seen_assertions')
        .values({ provider_id: providerId, assertion_id: assertionId, expires_at: expiresAt })
        .execute();
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  /** Deletes what expired before `now` (the housekeeping round). */
  async pruneExpired(now: string): Promise<void> {
    await this.db.deleteFrom('sso_states').where('expires_at', '<=', now).execute();
    await this.db.deleteFrom('sso_exchange_codes').where('expires_at', '<=', now).execute();
    await this.db.deleteFrom('sso_previews').where('expires_at', '<=', now).execute();
    await this.db.deleteFrom('saml_seen_assertions').where('expires_at', '<=', now).execute();
  }
}
