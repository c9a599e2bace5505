import type { Kysely } from 'kysely';
import type { Database, Db, ScimTokenRow } from '../../db/types.js';

/** The SCIM bearer tokens: stored by their SHA-256 only. */
export class ScimTokensRepo {
  constructor(private readonly db: Kysely<Database>) {}

  list(): Promise<ScimTokenRow[]> {
    return this.db.selectFrom('scim_tokens').selectAll().orderBy('id', 'desc').execute();
  }

  async insert(row: { name: string; token_hash: string; created_by: number; created_at: string }, db: Db) {
    const r = await db
      .insertInto('scim_tokens')
      .values({ ...row, last_used_at: null, revoked_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(r.id);
  }

  /** A token not yet revoked, found by its hash (the token itself is never stored). */
  findLiveByHash(tokenHash: string): Promise<ScimTokenRow | undefined> {
    return this.db
      .selectFrom('scim_tokens')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
  }

  findLive(id: number, db: Db): Promise<ScimTokenRow | undefined> {
    return db
      .selectFrom('scim_tokens')
      .selectAll()
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
  }

  async revoke(id: number, now: string, db: Db): Promise<void> {
    await db.updateTable('scim_tokens').set({ revoked_at: now }).where('id', '=', id).execute();
  }

  /** Records a use, unless one was recorded since `notBefore` (at most one write a minute per token). */
  async touch(id: number, now: string, notBefore: string): Promise<void> {
    await this.db
      .updateTable('scim_tokens')
      .set({ last_used_at: now })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', notBefore)]))
      .execute();
  }
}
