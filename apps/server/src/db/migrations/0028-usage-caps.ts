import { type ColumnDefinitionBuilder as ColumnBuilder, type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Usage caps and budget alerts.
 * - `usage_caps`: a limit in credits per (subject, period, model or '' for all), set by an
 *   administrator (`personal` 0) or by the user for themselves (`personal` 1).
 * - `usage_cap_subjects`: a subject's alert thresholds (JSON) and webhook address.
 * - `usage_cap_counters`: credits spent in one window, moved by the same transaction as
 *   the charge or its refund; a reservation is one conditional update of these rows.
 * - `usage_cap_alerts`: one row per (cap, window, threshold) that has fired, so it fires once.
 * - `notifications`: the bell's messages.
 * - `alert_deliveries` and `alert_delivery_attempts`: mails and webhook calls waiting to be
 *   sent (written with the alert, sent after commit, retried), and each try's outcome.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const serial = postgres ? 'serial' : 'integer';
  const id = (c: ColumnBuilder) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement());
  const subject = ['subject_type', 'subject_id'] as const;
  await db.schema
    .createTable('usage_caps')
    .addColumn('subject_type', 'varchar(8)', (c) => c.notNull())
    .addColumn('subject_id', 'integer', (c) => c.notNull())
    .addColumn('personal', 'integer', (c) => c.notNull())
    .addColumn('period', 'varchar(8)', (c) => c.notNull())
    .addColumn('model_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('credits', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_caps_pk', [...subject, 'personal', 'period', 'model_name'])
    .execute();
  await db.schema
    .createTable('usage_cap_subjects')
    .addColumn('subject_type', 'varchar(8)', (c) => c.notNull())
    .addColumn('subject_id', 'integer', (c) => c.notNull())
    .addColumn('alerts', 'text', (c) => c.notNull())
    .addColumn('webhook_url', 'varchar(2000)')
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_cap_subjects_pk', [...subject])
    .execute();
  await db.schema
    .createTable('usage_cap_counters')
    .addColumn('subject_type', 'varchar(8)', (c) => c.notNull())
    .addColumn('subject_id', 'integer', (c) => c.notNull())
    .addColumn('period', 'varchar(8)', (c) => c.notNull())
    .addColumn('model_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('window_start', 'varchar(10)', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_cap_counters_pk', [...subject, 'period', 'model_name', 'window_start'])
    .execute();
  await db.schema
    .createTable('usage_cap_alerts')
    .addColumn('subject_type', 'varchar(8)', (c) => c.notNull())
    .addColumn('subject_id', 'integer', (c) => c.notNull())
    .addColumn('period', 'varchar(8)', (c) => c.notNull())
    .addColumn('model_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('window_start', 'varchar(10)', (c) => c.notNull())
    .addColumn('percent', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_cap_alerts_pk', [...subject, 'period', 'model_name', 'window_start', 'percent'])
    .execute();
  await db.schema
    .createTable('notifications')
    .addColumn('id', serial, id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('read_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('notifications_user_idx').on('notifications').columns(['user_id', 'id']).execute();
  await db.schema
    .createTable('alert_deliveries')
    .addColumn('id', serial, id)
    .addColumn('channel', 'varchar(16)', (c) => c.notNull())
    .addColumn('target', 'varchar(2000)', (c) => c.notNull())
    .addColumn('subject_type', 'varchar(8)', (c) => c.notNull())
    .addColumn('subject_id', 'integer', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('lease_until', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('delivered_at', 'varchar(32)')
    .execute();
  await db.schema
    .createIndex('alert_deliveries_due_idx')
    .on('alert_deliveries')
    .column('next_attempt_at')
    .where(sql<boolean>`status = 'pending'`)
    .execute();
  await db.schema
    .createTable('alert_delivery_attempts')
    .addColumn('id', serial, id)
    .addColumn('delivery_id', 'integer', (c) => c.notNull().references('alert_deliveries.id').onDelete('cascade'))
    .addColumn('attempted_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('http_status', 'integer')
    .addColumn('error', 'varchar(500)')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('alert_delivery_attempts_delivery_idx')
    .on('alert_delivery_attempts')
    .column('delivery_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('alert_delivery_attempts').ifExists().execute();
  await db.schema.dropTable('alert_deliveries').ifExists().execute();
  await db.schema.dropTable('notifications').ifExists().execute();
  await db.schema.dropTable('usage_cap_alerts').ifExists().execute();
  await db.schema.dropTable('usage_cap_counters').ifExists().execute();
  await db.schema.dropTable('usage_cap_subjects').ifExists().execute();
  await db.schema.dropTable('usage_caps').ifExists().execute();
}
