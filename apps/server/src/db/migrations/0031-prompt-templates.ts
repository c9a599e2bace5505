import { type Kysely, PostgresAdapter } from 'kysely';

/*
 * Prompt templates and their earlier versions.
 * - `prompt_templates`: `scope` personal (owner_id set, the owner's alone), group (group_id
 *   set) or system. A personal template goes with its owner's account, a group's with its
 *   group; who made or last changed a shared one is kept while that account exists.
 * - `prompt_template_versions`: the text a template had before each edit, with who wrote it
 *   and when, so an edit can be undone by saving an old text again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const serial = postgres ? 'serial' : 'integer';

  await db.schema
    .createTable('prompt_templates')
    .addColumn('id', serial, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('title', 'varchar(100)', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('scope', 'varchar(16)', (c) => c.notNull())
    .addColumn('owner_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.references('user_groups.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('prompt_templates_owner_idx').on('prompt_templates').column('owner_id').execute();
  await db.schema.createIndex('prompt_templates_group_idx').on('prompt_templates').column('group_id').execute();
  await db.schema.createIndex('prompt_templates_scope_idx').on('prompt_templates').column('scope').execute();

  await db.schema
    .createTable('prompt_template_versions')
    .addColumn('id', serial, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('template_id', 'integer', (c) => c.notNull().references('prompt_templates.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('title', 'varchar(100)', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('edited_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('edited_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('prompt_template_versions_template_idx')
    .on('prompt_template_versions')
    .columns(['template_id', 'version'])
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('prompt_template_versions').execute();
  await db.schema.dropTable('prompt_templates').execute();
}
