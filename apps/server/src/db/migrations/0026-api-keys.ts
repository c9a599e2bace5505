import { type Kysely, PostgresAdapter } from 'kysely';

/**
 * Personal API keys, and permissions granted to a whole group. A key is kept by the SHA-256
 * of its secret (a random value of 32 bytes: no dictionary to try it against), with a short
 * prefix for people to recognise it; a revoked key stays for the record. Its limits — the
 * models it may call (JSON list, empty for all), a credit limit per period, an expiry, the
 * client networks it may come from (JSON list of CIDRs), requests per minute — live beside it.
 * Group permissions add to the permissions of every member of the group, as a user's own
 * grants (`user_permissions`) do.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (t: 'api_keys' | 'group_permissions') =>
    db.schema
      .createTable(t)
      .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()));
  await id('api_keys')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('prefix', 'varchar(16)', (c) => c.notNull())
    .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('models', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('credit_limit', 'integer')
    .addColumn('period', 'varchar(8)')
    .addColumn('expires_at', 'varchar(32)')
    .addColumn('ip_allow', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('rpm', 'integer')
    .addColumn('last_used_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('api_keys_user_id_idx').on('api_keys').columns(['user_id', 'id']).execute();

  await id('group_permissions')
    .addColumn('group_id', 'integer', (c) => c.notNull().references('user_groups.id').onDelete('cascade'))
    .addColumn('permission', 'varchar(100)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('group_permissions_group_permission_uq', ['group_id', 'permission'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('group_permissions').ifExists().execute();
  await db.schema.dropIndex('api_keys_user_id_idx').ifExists().execute();
  await db.schema.dropTable('api_keys').ifExists().execute();
}
