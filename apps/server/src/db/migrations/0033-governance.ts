import { type Kysely, PostgresAdapter } from 'kysely';

/**
 * Governance: retention and legal hold.
 * - `legal_holds`: one row per held user or group (`subject_type` 'user' | 'group'), with the
 *   reason and who placed it; releasing deletes the row (the audit log keeps the history).
 * - `conversations.hidden_at`: a held user's deletion hides the conversation from them
 *   instead of deleting it, so it stays preserved.
 * - `user_groups.retention_days`: a group's own retention, over the site's (null: the site's).
 * - `retention_runs`: each retention run (daily job or an administrator's, dry or not) and
 *   what it deleted or would delete.
 * - `job_locks`: cluster-wide locks as lease rows, so a daily job runs on one instance at a time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('legal_holds')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('subject_type', 'varchar(8)', (c) => c.notNull())
    .addColumn('subject_id', 'integer', (c) => c.notNull())
    .addColumn('reason', 'varchar(500)', (c) => c.notNull())
    .addColumn('placed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('placed_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('legal_holds_subject_uq', ['subject_type', 'subject_id'])
    .execute();
  await db.schema.createIndex('legal_holds_placed_by_idx').on('legal_holds').column('placed_by').execute();
  await db.schema.alterTable('conversations').addColumn('hidden_at', 'varchar(32)').execute();
  await db.schema.alterTable('user_groups').addColumn('retention_days', 'integer').execute();
  await db.schema
    .createTable('retention_runs')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('started_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('finished_at', 'varchar(32)')
    .addColumn('dry_run', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('conversations', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('files', 'integer', (c) => c.notNull().defaultTo(0))
    // Null: the daily job.
    .addColumn('started_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('retention_runs_started_idx').on('retention_runs').column('started_at').execute();
  await db.schema.createIndex('retention_runs_started_by_idx').on('retention_runs').column('started_by').execute();
  await db.schema
    .createTable('job_locks')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('owner', 'varchar(64)', (c) => c.notNull())
    .addColumn('locked_until', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('job_locks').ifExists().execute();
  await db.schema.dropIndex('retention_runs_started_by_idx').ifExists().execute();
  await db.schema.dropIndex('retention_runs_started_idx').ifExists().execute();
  await db.schema.dropTable('retention_runs').ifExists().execute();
  await db.schema.alterTable('user_groups').dropColumn('retention_days').execute();
  await db.schema.alterTable('conversations').dropColumn('hidden_at').execute();
  await db.schema.dropIndex('legal_holds_placed_by_idx').ifExists().execute();
  await db.schema.dropTable('legal_holds').ifExists().execute();
}
