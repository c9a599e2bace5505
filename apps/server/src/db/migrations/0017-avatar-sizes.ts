import type { Kysely } from 'kysely';

/**
 * The size of each account's uploaded avatar, so the site's storage budget counts avatars
 * from the database as it counts chat images (`files.size`). Avatars uploaded before this
 * migration count 0 until they are replaced: the database never knew their size.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('avatar_bytes', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('avatar_bytes').execute();
}
