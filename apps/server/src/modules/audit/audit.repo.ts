import type { AuditFilter } from '@aiplatform/contracts';
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { AuditLogRow, AuditLogsTable, Database, Db } from '../../db/types.js';
import type { Insertable } from 'kysely';

type AuditQuery = SelectQueryBuilder<Database, 'audit_logs', object>;

export interface ChainHead {
  seq: number;
  hash: string;
  keyedFrom: number;
  keyedSeal: string;
}

/** Inclusive end of a `to` filter: a bare day means the whole day. */
const endOf = (to: string) => (to.length === 10 ? `${to}T23:59:59.999Z` : to);

/** The only SQL on the audit log; it has no update and no delete. */
export class AuditRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Advances the chain head and returns the new sequence number with the previous
   * hash. The update locks the head row until the transaction ends, so concurrent
   * appends queue up and the chain cannot fork.
   */
  async advanceHead(trx: Db): Promise<{ seq: number; prevHash: string }> {
    const head = await trx
      .updateTable('audit_chain_head')
      .set({ seq: sql`seq + 1` })
      .where('id', '=', 1)
      .returning(['seq', 'hash'])
      .executeTakeFirstOrThrow();
    return { seq: Number(head.seq), prevHash: head.hash };
  }

  /** Takes the head's lock without moving it (appends wait) and returns it as committed. */
  async lockHead(trx: Db): Promise<{ seq: number; hash: string }> {
    const head = await trx
      .updateTable('audit_chain_head')
      .set({ seq: sql`seq` })
      .where('id', '=', 1)
      .returning(['seq', 'hash'])
      .executeTakeFirstOrThrow();
    return { seq: Number(head.seq), hash: head.hash };
  }

  /** The committed chain head: rows counted, the newest hash and the sealed cut-over to keyed rows. */
  async head(): Promise<ChainHead> {
    const head = await this.db.selectFrom('audit_chain_head').selectAll().where('id', '=', 1).executeTakeFirst();
    return {
      seq: Number(head?.seq ?? 0),
      hash: head?.hash ?? '0'.repeat(64),
      keyedFrom: Number(head?.keyed_from ?? 1),
      keyedSeal: head?.keyed_seal ?? '',
    };
  }

  /** The row with this sequence number, if any. */
  rowAt(seq: number, db: Db = this.db): Promise<{ id: number; hash: string } | undefined> {
    return db.selectFrom('audit_logs').select(['id', 'hash']).where('seq', '=', seq).executeTakeFirst();
  }

  async append(trx: Db, row: Insertable<AuditLogsTable>): Promise<void> {
    await trx.insertInto('audit_logs').values(row).execute();
    await trx.updateTable('audit_chain_head').set({ hash: row.hash }).where('id', '=', 1).execute();
  }

  private filtered(f: AuditFilter): AuditQuery {
    let q = this.db.selectFrom('audit_logs') as AuditQuery;
    if (f.actor_id !== undefined) q = q.where('actor_id', '=', f.actor_id);
    // Actions are lower-case, so the prefix is too (PostgreSQL's LIKE is case-sensitive);
    // SQLite's LIKE has no escape character unless one is named.
    if (f.action)
      q = q.where(sql<boolean>`action like ${`${f.action.toLowerCase().replace(/[%_\\]/g, '\\$&')}%`} escape '\\'`);
    if (f.target_type) q = q.where('target_type', '=', f.target_type);
    if (f.from) q = q.where('created_at', '>=', f.from);
    if (f.to) q = q.where('created_at', '<=', endOf(f.to));
    return q;
  }

  async page(f: AuditFilter, page: number, limit: number): Promise<{ rows: AuditLogRow[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.filtered(f)
        .selectAll()
        .orderBy('seq', 'desc')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute(),
      this.filtered(f)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  /** Rows after `afterSeq` in chain order, a batch at a time (verification, export). */
  batchAfter(afterSeq: number, size: number, f: AuditFilter = {}): Promise<AuditLogRow[]> {
    return this.filtered(f).selectAll().where('seq', '>', afterSeq).orderBy('seq').limit(size).execute();
  }
}
