import type { Kysely } from 'kysely';

/** Remembers that a group's administrators were warned of a low pool, so they are warned once per fall. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_groups').addColumn('pool_alert_sent_at', 'varchar(32)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_groups').dropColumn('pool_alert_sent_at').execute();
}
