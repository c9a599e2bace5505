import { type Kysely, sql } from 'kysely';

/**
 * An answer being streamed names the instance producing it (`owner_id`, a random id per
 * process) and until when that instance vouches for it (`lease_until`, renewed while it
 * streams). When the lease runs out, the owner is gone and any instance settles the turn.
 * Answers already streaming when this runs keep no owner: they are settled as answers left
 * over from before, by their age.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('owner_id', 'varchar(64)').execute();
  await db.schema.alterTable('messages').addColumn('lease_until', 'varchar(32)').execute();
  // The sweep looks for streaming answers whose lease ran out: few rows, a small partial index.
  await db.schema
    .createIndex('messages_streaming_lease_idx')
    .on('messages')
    .column('lease_until')
    .where(sql<boolean>`status = 'streaming'`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('messages_streaming_lease_idx').ifExists().execute();
  await db.schema.alterTable('messages').dropColumn('lease_until').execute();
  await db.schema.alterTable('messages').dropColumn('owner_id').execute();
}
