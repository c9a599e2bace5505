import { type Kysely, PostgresAdapter } from 'kysely';

/**
 * Share links: a copy of a conversation's branch as it was when shared, readable through a
 * random token. Only the token's SHA-256 is kept, so a copy of the database opens no link.
 * The copy lives in the row itself (`snapshot`, JSON), so editing or deleting the
 * conversation later leaves the shared page unchanged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('share_links')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // No foreign key: the conversation may be deleted while its snapshot stays readable.
    .addColumn('conversation_id', 'varchar(36)')
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('model_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('snapshot', 'text', (c) => c.notNull())
    .addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'varchar(32)')
    .addColumn('revoked_at', 'varchar(32)')
    .addColumn('visits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('share_links_user_idx').on('share_links').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('share_links_user_idx').ifExists().execute();
  await db.schema.dropTable('share_links').ifExists().execute();
}
