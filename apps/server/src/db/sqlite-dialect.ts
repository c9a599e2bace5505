import { type DatabaseConnection, type Driver, SqliteDialect, type SqliteDialectConfig, SqliteDriver } from 'kysely';
import type { SqliteDatabase } from './sqlite-driver.js';

/**
 * Kysely's SQLite driver, except that it does not roll back a transaction SQLite has
 * already rolled back by itself. SQLite does that when a statement fails with a full disk
 * (SQLITE_FULL), an I/O error or no memory; Kysely's ROLLBACK then fails with "no
 * transaction is active", and that error would replace the one that says what happened.
 */
class RolledBackAwareDriver extends SqliteDriver {
  constructor(
    config: SqliteDialectConfig,
    private readonly sqlite: SqliteDatabase,
  ) {
    super(config);
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (!this.sqlite.inTransaction) return;
    await super.rollbackTransaction(connection);
  }
}

export class AutoRollbackSqliteDialect extends SqliteDialect {
  constructor(
    private readonly config: SqliteDialectConfig,
    private readonly sqlite: SqliteDatabase,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return new RolledBackAwareDriver(this.config, this.sqlite);
  }
}
