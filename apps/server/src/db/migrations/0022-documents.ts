import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Documents and knowledge bases in chat.
 *
 * - `files` now holds documents beside images (`kind`), with where their extraction stands
 *   (`status` processing → ready | failed, `error_code`, `pages`, `tokens`). The extraction
 *   queue is these rows themselves: an instance takes a processing file by writing its own id
 *   and a lease into `job_owner` / `job_lease_until` with one conditional update, renews the
 *   lease while it works, and a lease that runs out (a killed instance) lets any other take
 *   the file again; `job_attempts` ends a file that keeps killing its workers as failed.
 * - `file_pages`: the extracted text, one row per page (PDF page, slide, sheet; one row for a
 *   format without pages).
 * - `document_chunks`: the passages retrieval ranks, each with its page and token count, and
 *   an embedding when an embedding model is set up (float32 bytes, scored exactly).
 * - `chunk_search`: full-text index of the chunks, built as `message_search` is (the index
 *   text is made in TypeScript so Chinese is split per character on both databases): an FTS5
 *   contentless table on SQLite (rowid = chunk id, a trigger removes a deleted chunk's
 *   entry), a tsvector side table on PostgreSQL (cascades with its chunk).
 * - `knowledge_bases` (personal or a group's), their documents, and the knowledge bases a
 *   conversation searches on every turn.
 * - `ai_models`: `kind` (chat | embedding), `context_window` and the optional price of
 *   document tokens; `messages.citations`: the passages an answer was given (JSON).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const serial = postgres ? 'serial' : 'integer';

  await db.schema
    .alterTable('files')
    .addColumn('kind', 'varchar(16)', (c) => c.notNull().defaultTo('image'))
    .execute();
  await db.schema
    .alterTable('files')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('ready'))
    .execute();
  await db.schema.alterTable('files').addColumn('error_code', 'varchar(64)').execute();
  await db.schema.alterTable('files').addColumn('pages', 'integer').execute();
  await db.schema.alterTable('files').addColumn('tokens', 'integer').execute();
  await db.schema.alterTable('files').addColumn('job_owner', 'varchar(64)').execute();
  await db.schema.alterTable('files').addColumn('job_lease_until', 'varchar(32)').execute();
  await db.schema
    .alterTable('files')
    .addColumn('job_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('files_status_idx').on('files').columns(['status', 'job_lease_until']).execute();

  await db.schema
    .createTable('file_pages')
    .addColumn('file_id', 'varchar(36)', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('page', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('file_pages_pk', ['file_id', 'page'])
    .execute();

  await db.schema
    .createTable('document_chunks')
    .addColumn('id', serial, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('file_id', 'varchar(36)', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('page', 'integer')
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('tokens', 'integer', (c) => c.notNull())
    .addColumn('embedding', postgres ? 'bytea' : 'blob')
    .addColumn('embedding_model', 'varchar(200)')
    .execute();
  await db.schema.createIndex('document_chunks_file_idx').on('document_chunks').columns(['file_id', 'seq']).execute();

  if (postgres) {
    await sql`
      create table chunk_search (
        chunk_id integer primary key references document_chunks(id) on delete cascade,
        file_id varchar(36) not null,
        tsv tsvector not null
      )`.execute(db);
    await sql`create index chunk_search_tsv_idx on chunk_search using gin (tsv)`.execute(db);
    await sql`create index chunk_search_file_idx on chunk_search (file_id)`.execute(db);
  } else {
    await sql`
      create virtual table chunk_search using fts5(
        body, content='', contentless_delete=1, tokenize='ascii'
      )`.execute(db);
    await sql`
      create trigger document_chunks_search_delete after delete on document_chunks
      begin delete from chunk_search where rowid = old.id; end`.execute(db);
  }

  await db.schema
    .createTable('knowledge_bases')
    .addColumn('id', serial, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('description', 'varchar(1000)', (c) => c.notNull().defaultTo(''))
    .addColumn('scope', 'varchar(16)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.references('user_groups.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('knowledge_bases_user_idx').on('knowledge_bases').column('user_id').execute();
  await db.schema.createIndex('knowledge_bases_group_idx').on('knowledge_bases').column('group_id').execute();

  await db.schema
    .createTable('knowledge_base_documents')
    .addColumn('knowledge_base_id', 'integer', (c) => c.notNull().references('knowledge_bases.id').onDelete('cascade'))
    .addColumn('file_id', 'varchar(36)', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('knowledge_base_documents_pk', ['knowledge_base_id', 'file_id'])
    .execute();
  await db.schema
    .createIndex('knowledge_base_documents_file_idx')
    .on('knowledge_base_documents')
    .column('file_id')
    .execute();

  await db.schema
    .createTable('conversation_knowledge_bases')
    .addColumn('conversation_id', 'varchar(36)', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    .addColumn('knowledge_base_id', 'integer', (c) => c.notNull().references('knowledge_bases.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('conversation_knowledge_bases_pk', ['conversation_id', 'knowledge_base_id'])
    .execute();
  await db.schema
    .createIndex('conversation_knowledge_bases_kb_idx')
    .on('conversation_knowledge_bases')
    .column('knowledge_base_id')
    .execute();

  await db.schema
    .alterTable('ai_models')
    .addColumn('kind', 'varchar(16)', (c) => c.notNull().defaultTo('chat'))
    .execute();
  await db.schema
    .alterTable('ai_models')
    .addColumn('context_window', 'integer', (c) => c.notNull().defaultTo(128_000))
    .execute();
  await db.schema
    .alterTable('ai_models')
    .addColumn('credits_per_1k_document_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('messages').addColumn('citations', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.alterTable('messages').dropColumn('citations').execute();
  for (const column of ['credits_per_1k_document_tokens', 'context_window', 'kind'])
    await db.schema.alterTable('ai_models').dropColumn(column).execute();
  await db.schema.dropTable('conversation_knowledge_bases').execute();
  await db.schema.dropTable('knowledge_base_documents').execute();
  await db.schema.dropTable('knowledge_bases').execute();
  if (!postgres) await sql`drop trigger if exists document_chunks_search_delete`.execute(db);
  await sql`drop table if exists chunk_search`.execute(db);
  await db.schema.dropTable('document_chunks').execute();
  await db.schema.dropTable('file_pages').execute();
  await db.schema.dropIndex('files_status_idx').execute();
  for (const column of [
    'job_attempts',
    'job_lease_until',
    'job_owner',
    'tokens',
    'pages',
    'error_code',
    'status',
    'kind',
  ])
    await db.schema.alterTable('files').dropColumn(column).execute();
}
