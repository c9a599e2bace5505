import type { Kysely } from 'kysely';
import type { Database, Db } from '../../db/types.js';

/** SQL for sessions (refresh-token families) and their rotating refresh tokens. */
export class SessionRepo {
  constructor(
    private readonly db: Kysely<Database>,
    /**
     * Told after every revocation (the session cache empties itself on every instance).
     * Inside a caller's transaction it runs before the commit, so that caller announces
     * again once committed (AdminTransactions does).
     */
    private readonly onRevoked?: () => Promise<void>,
  ) {}

  async createSession(s: { id: string; userId: number; ip: string | null; userAgent: string | null; now: string }) {
    await this.db
      .insertInto('auth_sessions')
      .values({
        id: s.id,
        user_id: s.userId,
        created_at: s.now,
        last_used_at: s.now,
        revoked_at: null,
        ip: s.ip,
        user_agent: s.userAgent,
      })
      .execute();
  }

  async insertRefreshToken(sessionId: string, tokenHash: string, expiresAt: string, now: string) {
    await this.db
      .insertInto('refresh_tokens')
      .values({ session_id: sessionId, token_hash: tokenHash, expires_at: expiresAt, used_at: null, created_at: now })
      .execute();
  }

  /**
   * Issues the successor of `parentId` in one transaction with the step that makes it the only
   * live one: spending the parent (`replacing` unset) or superseding the parent's unused
   * successor (`replacing`). False when another request did that step first.
   */
  async issueSuccessor(t: {
    parentId: number;
    replacing?: number;
    sessionId: string;
    tokenHash: string;
    expiresAt: string;
    now: string;
  }): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const step =
        t.replacing === undefined
          ? trx.updateTable('refresh_tokens').set({ used_at: t.now }).where('id', '=', t.parentId)
          : trx.updateTable('refresh_tokens').set({ superseded_at: t.now }).where('id', '=', t.replacing);
      // Neither step may act on a token already spent or replaced: a refresh racing the
      // replay that replaces its token would otherwise start a second live chain.
      const r = await step.where('used_at', 'is', null).where('superseded_at', 'is', null).executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) return false;
      await trx
        .insertInto('refresh_tokens')
        .values({
          session_id: t.sessionId,
          token_hash: t.tokenHash,
          expires_at: t.expiresAt,
          used_at: null,
          created_at: t.now,
          parent_id: t.parentId,
        })
        .execute();
      return true;
    });
  }

  /** The successor of a token that is still in its chain (at most one is not superseded). */
  currentSuccessor(parentId: number) {
    return this.db
      .selectFrom('refresh_tokens')
      .select(['id', 'used_at'])
      .where('parent_id', '=', parentId)
      .where('superseded_at', 'is', null)
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  findRefreshToken(tokenHash: string) {
    return this.db
      .selectFrom('refresh_tokens')
      .innerJoin('auth_sessions', 'auth_sessions.id', 'refresh_tokens.session_id')
      .select([
        'refresh_tokens.id',
        'refresh_tokens.parent_id',
        'refresh_tokens.created_at',
        'refresh_tokens.session_id',
        'refresh_tokens.expires_at',
        'refresh_tokens.used_at',
        'refresh_tokens.superseded_at',
        'auth_sessions.user_id',
        'auth_sessions.revoked_at',
        'auth_sessions.last_used_at as session_last_used_at',
      ])
      .where('refresh_tokens.token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  async touchSession(sessionId: string, now: string) {
    await this.db.updateTable('auth_sessions').set({ last_used_at: now }).where('id', '=', sessionId).execute();
  }

  async revokeSession(sessionId: string, now: string) {
    await this.db
      .updateTable('auth_sessions')
      .set({ revoked_at: now })
      .where('id', '=', sessionId)
      .where('revoked_at', 'is', null)
      .execute();
    await this.onRevoked?.();
  }

  /** Ends a user's sessions at once; `db` lets an admin change do it in its own transaction. */
  async revokeUserSessions(userId: number, now: string, exceptSessionId?: string, db: Db = this.db) {
    let q = db
      .updateTable('auth_sessions')
      .set({ revoked_at: now })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (exceptSessionId) q = q.where('id', '!=', exceptSessionId);
    await q.execute();
    await this.onRevoked?.();
  }

  /** Signed-in devices of a user whose refresh token has not yet expired, newest first. */
  liveSessions(userId: number, now: string) {
    return this.db
      .selectFrom('auth_sessions')
      .select(['id', 'created_at', 'last_used_at', 'ip', 'user_agent'])
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('refresh_tokens')
            .select('refresh_tokens.id')
            .whereRef('refresh_tokens.session_id', '=', 'auth_sessions.id')
            .where('refresh_tokens.used_at', 'is', null)
            .where('refresh_tokens.superseded_at', 'is', null)
            .where('refresh_tokens.expires_at', '>', now),
        ),
      )
      .orderBy('last_used_at', 'desc')
      .limit(50)
      .execute();
  }

  /** Expired refresh tokens can be neither used nor replayed; their rows serve nothing. */
  async pruneExpiredTokens(before: string) {
    await this.db.deleteFrom('refresh_tokens').where('expires_at', '<', before).execute();
  }
}
