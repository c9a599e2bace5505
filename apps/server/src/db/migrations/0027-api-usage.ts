import type { Kysely } from 'kysely';

/**
 * Usage through personal API keys (`/v1`), billed like the chat:
 * - `api_turns`: one row per API request, the record a chat turn keeps in its answer row. It
 *   holds the reservation (`cost`), the state (`streaming` until settled), the owning instance
 *   and its lease, so a request whose instance died is settled by a sweep elsewhere; `day` is
 *   the statistics day it began on, which is what a key's credit limit per period counts.
 * - `credit_transactions.source` ('ui' | 'api') and `api_key_id`: ledger rows of API requests
 *   name their key.
 * - `usage_daily_api`: the API's share of the daily usage rollups, per key (the totals keep
 *   counting everything, so the chat's share is the difference).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_turns')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('api_key_id', 'integer', (c) => c.notNull())
    .addColumn('group_id', 'integer')
    .addColumn('model_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull().defaultTo('chat'))
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('cost', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('produced', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('owner', 'varchar(64)')
    .addColumn('lease_until', 'varchar(32)')
    .addColumn('prompt_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('completion_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('finished_at', 'varchar(32)')
    .execute();
  // A key's spend in its period; the sweep's search for turns whose lease ran out; a user's turns.
  await db.schema.createIndex('api_turns_key_day_idx').on('api_turns').columns(['api_key_id', 'day']).execute();
  await db.schema.createIndex('api_turns_lease_idx').on('api_turns').columns(['status', 'lease_until']).execute();
  await db.schema.createIndex('api_turns_user_idx').on('api_turns').column('user_id').execute();

  await db.schema
    .alterTable('credit_transactions')
    .addColumn('source', 'varchar(8)', (c) => c.notNull().defaultTo('ui'))
    .execute();
  await db.schema.alterTable('credit_transactions').addColumn('api_key_id', 'integer').execute();
  await db.schema
    .createIndex('credit_transactions_api_key_idx')
    .on('credit_transactions')
    .column('api_key_id')
    .execute();

  await db.schema
    .createTable('usage_daily_api')
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('api_key_id', 'integer', (c) => c.notNull())
    .addColumn('model_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('group_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('requests', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tokens', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('credits', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('usage_daily_api_pk', ['day', 'user_id', 'api_key_id', 'model_name', 'group_id'])
    .execute();
  await db.schema.createIndex('usage_daily_api_key_idx').on('usage_daily_api').columns(['api_key_id', 'day']).execute();
  await db.schema.createIndex('usage_daily_api_group_idx').on('usage_daily_api').columns(['group_id', 'day']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('usage_daily_api').execute();
  await db.schema.dropIndex('credit_transactions_api_key_idx').execute();
  await db.schema.alterTable('credit_transactions').dropColumn('api_key_id').execute();
  await db.schema.alterTable('credit_transactions').dropColumn('source').execute();
  await db.schema.dropTable('api_turns').execute();
}
