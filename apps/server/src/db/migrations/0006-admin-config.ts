import { type Kysely, PostgresAdapter } from 'kysely';

/**
 * Administration II: the latency of a model's last connection test, modules with group
 * visibility, single sign-on mode and health, and the announcements (one system-wide,
 * one per group) with an optional schedule.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema.alterTable('ai_models').addColumn('last_test_latency_ms', 'integer').execute();

  await db.schema
    .alterTable('modules')
    .addColumn('auth_mode', 'varchar(16)', (c) => c.notNull().defaultTo('none'))
    .execute();
  await db.schema.alterTable('modules').addColumn('health_check_url', 'text').execute();
  await db.schema
    .alterTable('modules')
    .addColumn('health_status', 'varchar(16)', (c) => c.notNull().defaultTo('unknown'))
    .execute();
  await db.schema.alterTable('modules').addColumn('health_checked_at', 'varchar(32)').execute();
  await db.schema.alterTable('modules').addColumn('health_latency_ms', 'integer').execute();

  // No rows for a module = every group sees it (the same rule as ai_model_groups).
  await db.schema
    .createTable('module_groups')
    .ifNotExists()
    .addColumn('module_id', 'integer', (c) => c.notNull().references('modules.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('user_groups.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('module_groups_pk', ['module_id', 'group_id'])
    .execute();
  await db.schema.createIndex('module_groups_group_idx').ifNotExists().on('module_groups').column('group_id').execute();

  // `scope_key` is 'system' or 'group:<id>': one announcement per scope.
  await db.schema
    .createTable('announcements')
    .ifNotExists()
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('scope_key', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('group_id', 'integer', (c) => c.references('user_groups.id').onDelete('cascade'))
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('format', 'varchar(16)', (c) => c.notNull().defaultTo('markdown'))
    .addColumn('starts_at', 'varchar(32)')
    .addColumn('ends_at', 'varchar(32)')
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('announcements_group_idx').ifNotExists().on('announcements').column('group_id').execute();
  await db.schema
    .createIndex('announcements_updated_by_idx')
    .ifNotExists()
    .on('announcements')
    .column('updated_by')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('announcements').ifExists().execute();
  await db.schema.dropTable('module_groups').ifExists().execute();
  for (const c of ['health_latency_ms', 'health_checked_at', 'health_status', 'health_check_url', 'auth_mode']) {
    await db.schema.alterTable('modules').dropColumn(c).execute();
  }
  await db.schema.alterTable('ai_models').dropColumn('last_test_latency_ms').execute();
}
