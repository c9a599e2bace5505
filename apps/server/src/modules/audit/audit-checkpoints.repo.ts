import type { Insertable, Kysely } from 'kysely';
import type { AuditCheckpointRow, AuditCheckpointsTable, Database, Db } from '../../db/types.js';

/** A stored checkpoint beside the chain row it names (absent when that row is gone). */
export interface CheckpointWithRow extends AuditCheckpointRow {
  row_id: number | null;
  row_hash: string | null;
}

/** The only SQL on stored checkpoints; like the log itself, there is no update and no delete. */
export class AuditCheckpointsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(trx: Db, row: Insertable<AuditCheckpointsTable>): Promise<AuditCheckpointRow> {
    return trx.insertInto('audit_checkpoints').values(row).returningAll().executeTakeFirstOrThrow();
  }

  newest(trx: Db): Promise<AuditCheckpointRow | undefined> {
    return trx.selectFrom('audit_checkpoints').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirst();
  }

  async page(page: number, limit: number): Promise<{ rows: AuditCheckpointRow[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom('audit_checkpoints')
        .selectAll()
        .orderBy('id', 'desc')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute(),
      this.db
        .selectFrom('audit_checkpoints')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  /** Every checkpoint with the row at its count, the one that counts most rows first. */
  all(): Promise<CheckpointWithRow[]> {
    return this.db
      .selectFrom('audit_checkpoints as c')
      .leftJoin('audit_logs as l', 'l.seq', 'c.count')
      .selectAll('c')
      .select(['l.id as row_id', 'l.hash as row_hash'])
      .orderBy('c.count', 'desc')
      .orderBy('c.id', 'desc')
      .execute();
  }
}
