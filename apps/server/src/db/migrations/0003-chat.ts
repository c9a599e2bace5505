import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Chat: models (+ group availability), uploaded files, conversations, messages, drafts.
 * Same SQL on both dialects: ISO text timestamps, 0/1 booleans.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const serial = db.getExecutor().adapter instanceof PostgresAdapter;
  const autoId = (name: string) =>
    db.schema
      .createTable(name)
      .ifNotExists()
      .addColumn(name === 'messages' ? 'seq' : 'id', serial ? 'serial' : 'integer', (c) =>
        serial ? c.primaryKey() : c.primaryKey().autoIncrement(),
      );

  await autoId('ai_models')
    .addColumn('name', 'varchar(200)', (c) => c.notNull().unique())
    .addColumn('display_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('provider', 'varchar(32)', (c) => c.notNull())
    .addColumn('api_key_encrypted', 'text')
    .addColumn('api_endpoint', 'text')
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('credits_per_chat', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('stream_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('image_upload_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_test_at', 'varchar(32)')
    .addColumn('last_test_status', 'varchar(16)')
    .addColumn('last_test_message', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addCheckConstraint('ai_models_credits_not_negative', sql`credits_per_chat >= 0`)
    .execute();

  // No rows for a model = every group may use it.
  await db.schema
    .createTable('ai_model_groups')
    .ifNotExists()
    .addColumn('model_id', 'integer', (c) => c.notNull().references('ai_models.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('user_groups.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('ai_model_groups_pk', ['model_id', 'group_id'])
    .execute();
  await db.schema
    .createIndex('ai_model_groups_group_idx')
    .ifNotExists()
    .on('ai_model_groups')
    .column('group_id')
    .execute();

  await db.schema
    .createTable('files')
    .ifNotExists()
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('stored_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('original_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('mime', 'varchar(32)', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('files_user_idx').ifNotExists().on('files').column('user_id').execute();

  await db.schema
    .createTable('conversations')
    .ifNotExists()
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('model_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('system_prompt', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_pinned', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('context_length', 'integer', (c) => c.notNull().defaultTo(20))
    .addColumn('ai_temperature', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('message_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_message_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('conversations_user_order_idx')
    .ifNotExists()
    .on('conversations')
    .columns(['user_id', 'priority', 'updated_at'])
    .execute();

  // `seq` orders messages (two rows written in one transaction share a timestamp);
  // `id` is the public identifier; `parent_id` ties an answer to its question.
  await autoId('messages')
    .addColumn('id', 'varchar(36)', (c) => c.notNull().unique())
    .addColumn('conversation_id', 'varchar(36)', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    .addColumn('role', 'varchar(16)', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('file_id', 'varchar(36)', (c) => c.references('files.id').onDelete('set null'))
    .addColumn('parent_id', 'varchar(36)')
    .addColumn('tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('model_name', 'varchar(200)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('complete'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('messages_conversation_idx')
    .ifNotExists()
    .on('messages')
    .columns(['conversation_id', 'seq'])
    .execute();
  await db.schema.createIndex('messages_file_idx').ifNotExists().on('messages').column('file_id').execute();

  await db.schema
    .createTable('conversation_drafts')
    .ifNotExists()
    .addColumn('conversation_id', 'varchar(36)', (c) =>
      c.primaryKey().references('conversations.id').onDelete('cascade'),
    )
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['conversation_drafts', 'messages', 'conversations', 'files', 'ai_model_groups', 'ai_models']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
