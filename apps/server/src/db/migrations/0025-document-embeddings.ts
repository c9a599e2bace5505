import type { Kysely } from 'kysely';

/**
 * Embedding a ready document's chunks is a queue of its own, over `files`: `embed_model` is
 * the embedding model the document was settled for (every chunk embedded with it, or skipped
 * because the uploader could not pay), so a document waits while it differs from the model set
 * up now, and a change of model sets every document waiting again. An instance takes one with
 * a lease (`embed_owner`, `embed_lease_until`) by a conditional update, as extraction does with
 * its own columns, which stay free for extraction alone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('files').addColumn('embed_model', 'varchar(200)').execute();
  await db.schema.alterTable('files').addColumn('embed_owner', 'varchar(64)').execute();
  await db.schema.alterTable('files').addColumn('embed_lease_until', 'varchar(32)').execute();
  // Every instance looks for waiting documents each second: the index keeps that to the
  // ready documents' entries instead of every file.
  await db.schema.createIndex('files_embed_queue_idx').on('files').columns(['kind', 'status', 'embed_model']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('files_embed_queue_idx').execute();
  for (const column of ['embed_lease_until', 'embed_owner', 'embed_model'])
    await db.schema.alterTable('files').dropColumn(column).execute();
}
