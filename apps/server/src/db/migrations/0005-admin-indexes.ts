import { type Kysely, sql } from 'kysely';

/**
 * Indexes for the admin user list over live accounts: the group + status filter (rows
 * and count read the index instead of every user of the group) and the sort by
 * remaining credits (the first page is read from the index instead of sorting every user).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const live = sql<boolean>`deleted_at is null`;
  await db.schema
    .createIndex('users_live_group_status_idx')
    .ifNotExists()
    .on('users')
    .columns(['group_id', 'status'])
    .where(live)
    .execute();
  await db.schema
    .createIndex('users_live_credits_remaining_idx')
    .ifNotExists()
    .on('users')
    .expression(sql`(credits_quota - credits_used)`)
    .where(live)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_live_credits_remaining_idx').ifExists().execute();
  await db.schema.dropIndex('users_live_group_status_idx').ifExists().execute();
}
