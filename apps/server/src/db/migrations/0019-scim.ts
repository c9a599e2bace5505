import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * SCIM provisioning: the bearer tokens an identity provider (Entra ID, Okta) presents, and
 * what the directory calls each person it provisions. Only a token's SHA-256 is kept, so a
 * copy of the database cannot be used to provision. The directory's names live beside the
 * account's own: its `userName` may be an email or longer than a local username allows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('scim_tokens')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_used_at', 'varchar(32)')
    .addColumn('revoked_at', 'varchar(32)')
    .execute();

  await db.schema.alterTable('users').addColumn('external_id', 'varchar(255)').execute();
  await db.schema.alterTable('users').addColumn('scim_user_name', 'varchar(255)').execute();
  // Name parts and display name as the directory sent them, returned unchanged (JSON).
  await db.schema.alterTable('users').addColumn('scim_profile', 'text').execute();
  // Unique among live accounts only, as email and username are: a retired account frees them.
  await db.schema
    .createIndex('users_external_id_uq')
    .unique()
    .on('users')
    .column('external_id')
    .where(sql<boolean>`external_id is not null and deleted_at is null`)
    .execute();
  await db.schema
    .createIndex('users_scim_user_name_uq')
    .unique()
    .on('users')
    .expression(sql`lower(scim_user_name)`)
    .where(sql<boolean>`scim_user_name is not null and deleted_at is null`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_scim_user_name_uq').ifExists().execute();
  await db.schema.dropIndex('users_external_id_uq').ifExists().execute();
  for (const column of ['scim_profile', 'scim_user_name', 'external_id']) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
  await db.schema.dropTable('scim_tokens').ifExists().execute();
}
