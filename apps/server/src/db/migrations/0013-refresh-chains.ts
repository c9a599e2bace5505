import type { Kysely } from 'kysely';

/**
 * Refresh tokens remember the token they were issued for (`parent_id`), so a token presented
 * again can be judged by what became of its successor: never used means a client that keeps
 * its first token (accepted again), used means two holders (the session is revoked). A
 * successor replaced by a newer one is marked `superseded_at`, so each session keeps one
 * live chain. Rows from before carry no parent and are judged as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('refresh_tokens').addColumn('parent_id', 'integer').execute();
  await db.schema.alterTable('refresh_tokens').addColumn('superseded_at', 'varchar(32)').execute();
  await db.schema.createIndex('refresh_tokens_parent_idx').on('refresh_tokens').column('parent_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('refresh_tokens_parent_idx').ifExists().execute();
  await db.schema.alterTable('refresh_tokens').dropColumn('superseded_at').execute();
  await db.schema.alterTable('refresh_tokens').dropColumn('parent_id').execute();
}
