import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Retrieval on SQLite holds its FTS5 search to the chunk id ranges of the documents it
 * searches, and needs each document's first and last chunk id. The index on (file_id, seq)
 * cannot give them without reading every chunk of the document; an index on file_id alone
 * is (file_id, rowid) in SQLite, so both are one seek each. PostgreSQL narrows by the file id
 * of its own full-text table and needs nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`create index document_chunks_file_id_idx on document_chunks (file_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`drop index if exists document_chunks_file_id_idx`.execute(db);
}
