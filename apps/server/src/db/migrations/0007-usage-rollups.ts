import type { CreateTableBuilder, Kysely } from 'kysely';
import { backfillUsageRollups } from '../../modules/stats/usage-backfill.js';
import type { Database } from '../types.js';

/**
 * Daily usage rollups (statistics read these, never the messages), filled from the
 * chat history already stored.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const counters = (t: CreateTableBuilder<string, string>): CreateTableBuilder<string, string> =>
    t
      .addColumn('messages', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('tokens', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('credits', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('conversations', 'integer', (c) => c.notNull().defaultTo(0));

  await counters(
    db.schema
      .createTable('usage_daily')
      .ifNotExists()
      .addColumn('day', 'varchar(10)', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('model_name', 'varchar(200)', (c) => c.notNull())
      .addColumn('group_id', 'integer', (c) => c.notNull().defaultTo(0)),
  )
    .addPrimaryKeyConstraint('usage_daily_pk', ['day', 'user_id', 'model_name', 'group_id'])
    .execute();
  // A user's own statistics, and a group's.
  await db.schema
    .createIndex('usage_daily_user_day_idx')
    .ifNotExists()
    .on('usage_daily')
    .columns(['user_id', 'day'])
    .execute();
  await db.schema
    .createIndex('usage_daily_group_day_idx')
    .ifNotExists()
    .on('usage_daily')
    .columns(['group_id', 'day', 'user_id'])
    .execute();
  // The platform overview (active users per day, usage per user) over a range of days:
  // read from this index alone, never from the table rows.
  await db.schema
    .createIndex('usage_daily_day_counts_idx')
    .ifNotExists()
    .on('usage_daily')
    .columns(['day', 'user_id', 'group_id', 'messages', 'tokens', 'credits', 'conversations'])
    .execute();

  await counters(
    db.schema
      .createTable('usage_daily_totals')
      .ifNotExists()
      .addColumn('day', 'varchar(10)', (c) => c.notNull())
      .addColumn('group_id', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('model_name', 'varchar(200)', (c) => c.notNull()),
  )
    .addPrimaryKeyConstraint('usage_daily_totals_pk', ['day', 'group_id', 'model_name'])
    .execute();

  await backfillUsageRollups(db as Kysely<Database>);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('usage_daily_totals').ifExists().execute();
  await db.schema.dropTable('usage_daily').ifExists().execute();
}
