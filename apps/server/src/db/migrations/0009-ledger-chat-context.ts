import { type Kysely, sql } from 'kysely';

/**
 * A chat charge or refund names its conversation and model, so a credit history can say
 * what the credits went on even after the answer is deleted. Earlier rows are filled from
 * the answers that still exist.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('credit_transactions').addColumn('conversation_id', 'varchar(36)').execute();
  await db.schema.alterTable('credit_transactions').addColumn('model_name', 'varchar(200)').execute();
  await fillLedgerChatContext(db);
}

/** Names the conversation and model of chat rows that lack them, from their answers. */
export async function fillLedgerChatContext(db: Kysely<unknown>): Promise<void> {
  await sql`
    update credit_transactions
    set conversation_id = (select m.conversation_id from messages m where m.id = credit_transactions.reference_id),
        model_name = (select m.model_name from messages m where m.id = credit_transactions.reference_id)
    where transaction_type in ('chat_consume', 'system_refund') and reference_id is not null
      and conversation_id is null
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('credit_transactions').dropColumn('model_name').execute();
  await db.schema.alterTable('credit_transactions').dropColumn('conversation_id').execute();
}
