import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * The admin side: retired accounts, reasons on ledger rows, the group pool ledger,
 * idempotency keys and the hash-chained audit log.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const serialPk = (name: string) =>
    db.schema
      .createTable(name)
      .ifNotExists()
      .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()));

  // A retired account keeps its row (its ledger stays) but frees its email, username and
  // phone: uniqueness now covers live accounts only.
  await db.schema.alterTable('users').addColumn('deleted_at', 'varchar(32)').execute();
  for (const name of ['users_email_uq', 'users_username_uq', 'users_phone_uq']) {
    await db.schema.dropIndex(name).ifExists().execute();
  }
  const live = sql<boolean>`deleted_at is null`;
  await db.schema.createIndex('users_email_uq').unique().on('users').column('email').where(live).execute();
  await db.schema
    .createIndex('users_username_uq')
    .unique()
    .on('users')
    .expression(sql`lower(username)`)
    .where(live)
    .execute();
  await db.schema.createIndex('users_phone_uq').unique().on('users').column('phone').where(live).execute();
  await db.schema.createIndex('users_created_idx').on('users').column('created_at').execute();

  await db.schema.alterTable('credit_transactions').addColumn('reason', 'text').execute();
  await sql`update credit_transactions set transaction_type = 'system_reward' where transaction_type = 'register_grant'`.execute(
    db,
  );

  await serialPk('group_pool_transactions')
    .addColumn('group_id', 'integer', (c) => c.notNull().references('user_groups.id').onDelete('cascade'))
    .addColumn('transaction_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('pool_remaining_after', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('operator_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('reason', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('group_pool_tx_group_idx')
    .on('group_pool_transactions')
    .columns(['group_id', 'id'])
    .execute();
  await db.schema.createIndex('group_pool_tx_user_idx').on('group_pool_transactions').column('user_id').execute();
  await db.schema
    .createIndex('group_pool_tx_operator_idx')
    .on('group_pool_transactions')
    .column('operator_id')
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .ifNotExists()
    .addColumn('actor_id', 'integer', (c) => c.notNull())
    .addColumn('key', 'varchar(128)', (c) => c.notNull())
    .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
    .addColumn('response', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['actor_id', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_created_idx').on('idempotency_keys').column('created_at').execute();

  await serialPk('audit_logs')
    .addColumn('seq', 'integer', (c) => c.notNull().unique())
    .addColumn('actor_id', 'integer')
    .addColumn('actor_username', 'varchar(20)')
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('target_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('target_id', 'varchar(64)')
    .addColumn('changes', 'text', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)')
    .addColumn('request_id', 'varchar(128)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('prev_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('hash', 'varchar(64)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_logs_created_idx').on('audit_logs').column('created_at').execute();
  await db.schema.createIndex('audit_logs_actor_idx').on('audit_logs').column('actor_id').execute();
  await db.schema.createIndex('audit_logs_action_idx').on('audit_logs').column('action').execute();
  await db.schema.createIndex('audit_logs_target_idx').on('audit_logs').columns(['target_type', 'target_id']).execute();

  // The head of the chain: one row, locked by every append so the chain cannot fork.
  await db.schema
    .createTable('audit_chain_head')
    .ifNotExists()
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('hash', 'varchar(64)', (c) => c.notNull())
    .execute();
  await sql`insert into audit_chain_head (id, seq, hash) values (1, 0, ${'0'.repeat(64)})`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['audit_chain_head', 'audit_logs', 'idempotency_keys', 'group_pool_transactions']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
