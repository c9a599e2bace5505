import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  const serial = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('modules')
    .ifNotExists()
    .addColumn('id', serial ? 'serial' : 'integer', (c) => (serial ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('display_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('type', 'varchar(16)', (c) => c.notNull().defaultTo('frontend'))
    .addColumn('menu_icon', 'varchar(64)', (c) => c.notNull().defaultTo('AppstoreOutlined'))
    .addColumn('open_mode', 'varchar(16)', (c) => c.notNull().defaultTo('iframe'))
    .addColumn('module_url', 'text', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('config', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('modules').ifExists().execute();
}
