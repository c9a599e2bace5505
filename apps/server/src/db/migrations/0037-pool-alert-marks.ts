import type { Kysely } from 'kysely';

/**
 * `pool_alert_marks`: one row per group and alert threshold while the group's credit pool
 * stands at or past that threshold and its alert has fired. The row makes the alert fire
 * once per fall of the pool; it is removed when the pool is back under the threshold
 * (topped up or enlarged), so the next fall fires again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pool_alert_marks')
    .addColumn('group_id', 'integer', (c) => c.notNull().references('user_groups.id').onDelete('cascade'))
    .addColumn('percent', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('pool_alert_marks_pk', ['group_id', 'percent'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('pool_alert_marks').execute();
}
