import type { Kysely } from 'kysely';

/**
 * A failed turn keeps why it failed (`error_code`, the code its stream's `error` event
 * carried), so a reload shows the same reason as the live answer did: on the question
 * left unanswered (its empty answer is removed with the refund, and the question also
 * keeps the model it was sent to), and on an answer broken off after some text.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('error_code', 'varchar(64)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').dropColumn('error_code').execute();
}
