import { type Kysely, type Migration, type MigrationResultSet, Migrator, PostgresAdapter, sql } from 'kysely';
import * as m0001 from './migrations/0001-initial.js';
import * as m0002 from './migrations/0002-modules.js';
import * as m0003 from './migrations/0003-chat.js';
import * as m0004 from './migrations/0004-admin.js';
import * as m0005 from './migrations/0005-admin-indexes.js';
import * as m0006 from './migrations/0006-admin-config.js';
import * as m0007 from './migrations/0007-usage-rollups.js';
import * as m0008 from './migrations/0008-pool-alerts.js';
import * as m0009 from './migrations/0009-ledger-chat-context.js';
import * as m0010 from './migrations/0010-message-search.js';
import * as m0011 from './migrations/0011-message-images.js';
import * as m0012 from './migrations/0012-answer-leases.js';
import * as m0013 from './migrations/0013-refresh-chains.js';
import * as m0014 from './migrations/0014-failed-turn-reasons.js';
import * as m0015 from './migrations/0015-message-versions.js';
import { auditKeyedChain } from './migrations/0016-audit-keyed-chain.js';
import * as m0017 from './migrations/0017-avatar-sizes.js';
import * as m0018 from './migrations/0018-identity.js';
import * as m0019 from './migrations/0019-scim.js';
import * as m0020 from './migrations/0020-sso-preview.js';
import * as m0021 from './migrations/0021-sso-binding.js';
import * as m0022 from './migrations/0022-documents.js';
import * as m0023 from './migrations/0023-file-mime.js';
import * as m0024 from './migrations/0024-chunk-id-ranges.js';
import * as m0025 from './migrations/0025-document-embeddings.js';
import * as m0028 from './migrations/0028-usage-caps.js';
import * as m0026 from './migrations/0026-api-keys.js';
import * as m0027 from './migrations/0027-api-usage.js';
import * as m0029 from './migrations/0029-chunk-search-pairs.js';
import * as m0031 from './migrations/0031-prompt-templates.js';
import * as m0032 from './migrations/0032-share-links.js';
import * as m0033 from './migrations/0033-governance.js';
import * as m0037 from './migrations/0037-pool-alert-marks.js';
import type { Database } from './types.js';

/** What some migrations need beyond the database. */
export interface MigrationContext {
  /** The application secret: 0016 seals where the audit chain starts being keyed. */
  appSecret: string;
}

/** Migrations are listed here (not read from disk) so they work from any working directory. */
export const migrations = (ctx: MigrationContext): Record<string, Migration> => ({
  '0001-initial': m0001,
  '0002-modules': m0002,
  '0003-chat': m0003,
  '0004-admin': m0004,
  '0005-admin-indexes': m0005,
  '0006-admin-config': m0006,
  '0007-usage-rollups': m0007,
  '0008-pool-alerts': m0008,
  '0009-ledger-chat-context': m0009,
  '0010-message-search': m0010,
  '0011-message-images': m0011,
  '0012-answer-leases': m0012,
  '0013-refresh-chains': m0013,
  '0014-failed-turn-reasons': m0014,
  '0015-message-versions': m0015,
  '0016-audit-keyed-chain': auditKeyedChain(ctx.appSecret),
  '0017-avatar-sizes': m0017,
  '0018-identity': m0018,
  '0019-scim': m0019,
  '0020-sso-preview': m0020,
  '0021-sso-binding': m0021,
  '0022-documents': m0022,
  '0023-file-mime': m0023,
  '0024-chunk-id-ranges': m0024,
  '0025-document-embeddings': m0025,
  '0028-usage-caps': m0028,
  '0026-api-keys': m0026,
  '0027-api-usage': m0027,
  '0029-chunk-search-pairs': m0029,
  '0031-prompt-templates': m0031,
  '0032-share-links': m0032,
  '0033-governance': m0033,
  '0037-pool-alert-marks': m0037,
});

/**
 * On PostgreSQL the bookkeeping tables go into the connection's current schema: left
 * unset, Kysely looks for them in every schema and is fooled by another app's tables
 * (or another installation sharing the database).
 */
async function migrationSchema(db: Kysely<Database>): Promise<string | undefined> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return undefined;
  const r = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return r.rows[0]?.schema;
}

/**
 * Kysely looks for its bookkeeping tables by listing the tables of every schema, checking
 * each schema's privileges and each column's sequence as it goes; a schema another client
 * drops during that listing (another installation sharing the database, a test run cleaning
 * up) fails it with "schema does not exist", or with "relation" or "column does not exist"
 * when the drop lands between reading a table's name and reading its columns. Nothing was
 * changed then, so the listing is simply tried again.
 */
const VANISHED_DURING_LISTING = new Set([
  '3F000', // invalid_schema_name
  '42P01', // undefined_table
  '42703', // undefined_column
]);
const MIGRATE_ATTEMPTS = 3;

async function migratorFor(db: Kysely<Database>, ctx: MigrationContext): Promise<Migrator> {
  const migrationTableSchema = await migrationSchema(db);
  return new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations(ctx)) },
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
}

/**
 * Runs the migrator until it succeeds, trying again (up to MIGRATE_ATTEMPTS) only when the
 * table listing failed on a schema dropped meanwhile; a migration's own failure is thrown.
 */
async function runMigrator(run: () => Promise<MigrationResultSet>, failure: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await run();
    const failed = results?.find((r) => r.status === 'Error');
    if (!error && !failed) return;
    const vanished = !failed && VANISHED_DURING_LISTING.has((error as { code?: string } | undefined)?.code ?? '');
    if (vanished && attempt < MIGRATE_ATTEMPTS) continue;
    throw new Error(`${failure} ${failed?.migrationName ?? ''} failed`, { cause: error });
  }
}

/** Undoes every migration after `name` (tests that rebuild an older database). */
export async function migrateDownTo(db: Kysely<Database>, ctx: MigrationContext, name: string): Promise<void> {
  const migrator = await migratorFor(db, ctx);
  await runMigrator(() => migrator.migrateTo(name), 'undoing migration');
}

export async function migrateToLatest(db: Kysely<Database>, ctx: MigrationContext): Promise<void> {
  const migrator = await migratorFor(db, ctx);
  await runMigrator(() => migrator.migrateToLatest(), 'migration');
}
