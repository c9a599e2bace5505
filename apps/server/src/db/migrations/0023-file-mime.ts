import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * `files.mime` held image types only (varchar(32)); Office documents' types are longer
 * ("application/vnd.openxmlformats-officedocument.presentationml.presentation" is 73
 * characters). SQLite does not enforce a varchar length, so only PostgreSQL changes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table files alter column mime type varchar(127)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  // A longer type would not fit back: documents' types are cut, as nothing before this reads them.
  await sql`alter table files alter column mime type varchar(32) using left(mime, 32)`.execute(db);
}
