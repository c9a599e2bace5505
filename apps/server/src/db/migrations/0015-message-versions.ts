import { type Kysely, sql } from 'kysely';

/**
 * Messages form a tree: every message names the one it follows (`parent_id`; an answer
 * already named its question), so an edited question or a regenerated answer is a
 * sibling of the version it replaces. Existing conversations become one chain: each
 * message without a parent follows the message just before it. The conversation
 * remembers the branch shown (`active_message_id`: shown with its newest descendants;
 * null shows the newest message's branch).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await linkMessagesInOrder(db);
  await db.schema.alterTable('conversations').addColumn('active_message_id', 'varchar(36)').execute();
  await db.schema.createIndex('messages_parent_idx').on('messages').column('parent_id').execute();
}

/** Each message without a parent follows the message just before it in its conversation. */
export async function linkMessagesInOrder(db: Kysely<unknown>): Promise<void> {
  await sql`
    update messages set parent_id = (
      select prev.id from messages prev
      where prev.conversation_id = messages.conversation_id and prev.seq < messages.seq
      order by prev.seq desc limit 1
    )
    where parent_id is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('messages_parent_idx').ifExists().execute();
  await db.schema.alterTable('conversations').dropColumn('active_message_id').execute();
}
