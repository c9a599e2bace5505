import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

const MAX_STATEMENTS = 1000;

/**
 * Kysely prepares every SQLite statement anew; preparing costs about as much as running
 * a small query. Queries are built from a fixed set of shapes, so their compiled
 * statements are kept and reused (bounded; the oldest go first when it fills up).
 */
export function withStatementCache(db: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => db.close(),
    prepare(sql: string): SqliteStatement {
      let stmt = cache.get(sql);
      if (!stmt) {
        stmt = db.prepare(sql);
        const oldest = cache.size >= MAX_STATEMENTS ? cache.keys().next().value : undefined;
        if (oldest !== undefined) cache.delete(oldest);
        cache.set(sql, stmt);
      }
      return stmt;
    },
  };
}
