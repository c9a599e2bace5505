import { type Kysely, sql } from 'kysely';

/**
 * A message carries up to four images, in order: `message_files` lists them. The rows of
 * a message go with it, and so do those of a file (a deleted account takes both along).
 * Earlier single images (`messages.file_id`) move here as position 0.
 *
 * `messages.file_id` itself stays as an empty column: dropping it on SQLite means
 * rebuilding the messages table (the column carries a foreign key), a long and risky
 * step on a large installation for no gain. Nothing reads or writes it any more.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('message_files')
    .addColumn('message_id', 'varchar(36)', (c) => c.notNull().references('messages.id').onDelete('cascade'))
    .addColumn('file_id', 'varchar(36)', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('message_files_pkey', ['message_id', 'position'])
    .addUniqueConstraint('message_files_message_file_unique', ['message_id', 'file_id'])
    .execute();
  // "Is this file still used by another message?" and the stale-upload sweep look files up here.
  await db.schema.createIndex('message_files_file_idx').on('message_files').column('file_id').execute();

  await fillMessageFiles(db);
}

/** Moves the single images of older messages (`messages.file_id`) into `message_files` as position 0. */
export async function fillMessageFiles(db: Kysely<unknown>): Promise<void> {
  await sql`
    insert into message_files (message_id, file_id, position)
    select m.id, m.file_id, 0 from messages m
    where m.file_id is not null and exists (select 1 from files f where f.id = m.file_id)
      and not exists (select 1 from message_files mf where mf.message_id = m.id)
  `.execute(db);
  await sql`update messages set file_id = null where file_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    update messages set file_id = (
      select mf.file_id from message_files mf where mf.message_id = messages.id and mf.position = 0
    )
  `.execute(db);
  await db.schema.dropTable('message_files').execute();
}
