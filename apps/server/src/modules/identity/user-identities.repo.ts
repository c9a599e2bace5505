import type { Kysely } from 'kysely';
import type { Database, Db, UserIdentityRow } from '../../db/types.js';

/** The SQL of `user_identities`: who a person at a provider is here. */
export class UserIdentitiesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  find(providerId: number, subject: string, db: Db = this.db): Promise<UserIdentityRow | undefined> {
    return db
      .selectFrom('user_identities')
      .selectAll()
      .where('provider_id', '=', providerId)
      .where('subject', '=', subject)
      .executeTakeFirst();
  }

  async insert(
    row: { provider_id: number; subject: string; user_id: number; email: string | null; now: string },
    db: Db,
  ): Promise<void> {
    await db
      .insertInto('user_identities')
      .values({
        provider_id: row.provider_id,
        subject: row.subject,
        user_id: row.user_id,
        email: row.email,
        created_at: row.now,
        last_login_at: row.now,
      })
      .execute();
  }

  async touch(id: number, email: string | null, now: string, db: Db): Promise<void> {
    await db.updateTable('user_identities').set({ email, last_login_at: now }).where('id', '=', id).execute();
  }

  async remove(id: number, db: Db): Promise<void> {
    await db.deleteFrom('user_identities').where('id', '=', id).execute();
  }
}
