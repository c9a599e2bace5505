import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, Db, IdentityProviderRow, IdentityProvidersTable } from '../../db/types.js';

/** The SQL of `identity_providers`. */
export class IdentityProvidersRepo {
  constructor(private readonly db: Kysely<Database>) {}

  list(db: Db = this.db): Promise<IdentityProviderRow[]> {
    return db.selectFrom('identity_providers').selectAll().orderBy('id').execute();
  }

  listEnabled(): Promise<Pick<IdentityProviderRow, 'slug' | 'name' | 'type'>[]> {
    return this.db
      .selectFrom('identity_providers')
      .select(['slug', 'name', 'type'])
      .where('enabled', '=', 1)
      .orderBy('id')
      .execute();
  }

  findById(id: number, db: Db = this.db): Promise<IdentityProviderRow | undefined> {
    return db.selectFrom('identity_providers').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findBySlug(slug: string): Promise<IdentityProviderRow | undefined> {
    return this.db.selectFrom('identity_providers').selectAll().where('slug', '=', slug).executeTakeFirst();
  }

  async insert(row: Insertable<IdentityProvidersTable>, db: Db): Promise<number> {
    const r = await db.insertInto('identity_providers').values(row).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  async update(id: number, patch: Updateable<IdentityProvidersTable>, db: Db): Promise<void> {
    await db.updateTable('identity_providers').set(patch).where('id', '=', id).execute();
  }

  async remove(id: number, db: Db): Promise<void> {
    await db.deleteFrom('identity_providers').where('id', '=', id).execute();
  }
}
