import fs from 'node:fs';
import path from 'node:path';
import { SQLite } from './sqlite-driver.js';
import { Kysely, PostgresDialect } from 'kysely';
import * as sqliteVec from 'sqlite-vec';
import { AutoRollbackSqliteDialect } from './sqlite-dialect.js';
import { type DatabaseLog, createPgPool } from './pg-pool.js';
import { withStatementCache } from './statement-cache.js';
import { scheduleWalCheckpoints } from './wal-checkpoints.js';
import type { Database } from './types.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

export function isPostgresUrl(url: string | undefined): boolean {
  return !!url && /^postgres(ql)?:\/\//.test(url);
}

/**
 * Opens PostgreSQL when the URL says so, else an SQLite file under the data dir.
 * SQLite runs in WAL mode with a busy timeout so readers never block the writer, and its
 * log is checkpointed by a timer rather than inside a request's commit.
 * PostgreSQL connections that fail or time out surface as errors of the request that
 * needed them (answered 503), never as a crash.
 */
export function openDatabase(opts: { databaseUrl?: string; dataDir: string; log?: DatabaseLog }): DatabaseHandle {
  if (isPostgresUrl(opts.databaseUrl)) {
    const { dialectPool } = createPgPool(opts.databaseUrl as string, opts.log);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: dialectPool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  const file = opts.databaseUrl?.startsWith('sqlite:')
    ? opts.databaseUrl.slice('sqlite:'.length)
    : path.join(opts.dataDir, 'app.db');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  // sqlite-vec's functions score stored embeddings inside SQLite (documents/chunk-search.repo.ts);
  // without them (a platform it has no build for) embeddings are scored in JavaScript.
  try {
    sqliteVec.load(sqlite);
  } catch (err) {
    opts.log?.warn({ err }, 'sqlite-vec could not be loaded; embeddings are scored without it');
  }
  const stopCheckpoints = file === ':memory:' ? () => undefined : scheduleWalCheckpoints(sqlite, opts.log);
  const db = new Kysely<Database>({
    dialect: new AutoRollbackSqliteDialect({ database: withStatementCache(sqlite) }, sqlite),
  });
  return {
    db,
    dialect: 'sqlite',
    close: () => {
      stopCheckpoints();
      return db.destroy();
    },
  };
}
