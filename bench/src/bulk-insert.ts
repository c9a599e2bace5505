import type { Sqlite } from './db.js';

export interface BulkInsert {
  /** Queues one row (values in the order of the columns); full statements run as they fill. */
  add(...values: unknown[]): void;
  /** Writes the rows still queued. */
  flush(): void;
}

/**
 * Multi-row INSERTs for seeding: `rowsPerStatement` rows per statement (one prepared
 * statement reused), the rest in one last statement on `flush`. The caller holds the
 * transaction.
 */
export function bulkInsert(db: Sqlite, table: string, columns: readonly string[], rowsPerStatement = 500): BulkInsert {
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const text = (rows: number) =>
    `insert into ${table} (${columns.join(', ')}) values ${new Array<string>(rows).fill(tuple).join(', ')}`;
  const full = db.prepare(text(rowsPerStatement));
  let values: unknown[] = [];
  return {
    add(...row: unknown[]) {
      if (row.length !== columns.length)
        throw new Error(`${table}: ${row.length} values for ${columns.length} columns`);
      for (const v of row) values.push(v);
      if (values.length === rowsPerStatement * columns.length) {
        full.run(values);
        values = [];
      }
    },
    flush() {
      if (values.length === 0) return;
      db.prepare(text(values.length / columns.length)).run(values);
      values = [];
    },
  };
}
