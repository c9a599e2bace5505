import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database, GroupRow, UserGroupsTable, Db } from '../../db/types.js';
import type { Insertable, Updateable } from 'kysely';
import type { Dialect } from '../../db/database.js';

/** A group with its live-member statistics, as lists and details show it. */
export interface GroupWithStats extends GroupRow {
  user_count: number;
  avg_credits_used: number;
  avg_tokens_used: number;
}

/**
 * The pool's columns: its balance is written only by `applyPoolChange`, the low-pool mark
 * only by `PoolAlertsRepo`. A group is created with an empty pool.
 */
type PoolColumns = 'credits_pool' | 'credits_pool_used' | 'pool_alert_sent_at';
export type NewGroup = Omit<Insertable<UserGroupsTable>, 'id' | PoolColumns>;
export type GroupPatch = Omit<Updateable<UserGroupsTable>, 'id' | PoolColumns>;
const EMPTY_POOL = { credits_pool: 0, credits_pool_used: 0 } as const;

/**
 * The SQL on `user_groups` and reads of the group pool ledger. The pool's balance and its
 * ledger rows are written only by `applyPoolChange` (pool-writer.ts); the low-pool alert's
 * mark by pool-alerts.repo.ts.
 */
export class GroupsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  private withStats(db: Db) {
    // Retired accounts are no longer members: they count nowhere.
    const members = db
      .selectFrom('users')
      .where('deleted_at', 'is', null)
      .where('group_id', 'is not', null)
      .groupBy('group_id')
      .select((eb) => [
        'group_id',
        eb.fn.countAll<number>().as('n'),
        eb.fn.avg<number>('credits_used').as('avg_credits'),
        eb.fn.avg<number>('token_used').as('avg_tokens'),
      ])
      .as('m');
    return db
      .selectFrom('user_groups')
      .leftJoin(members, 'm.group_id', 'user_groups.id')
      .selectAll('user_groups')
      .select((eb) => [
        eb.fn.coalesce('m.n', sql<number>`0`).as('user_count'),
        eb.fn.coalesce('m.avg_credits', sql<number>`0`).as('avg_credits_used'),
        eb.fn.coalesce('m.avg_tokens', sql<number>`0`).as('avg_tokens_used'),
      ]);
  }

  async list(opts: {
    onlyId?: number;
    page: number;
    limit: number;
  }): Promise<{ rows: GroupWithStats[]; total: number }> {
    let q = this.withStats(this.db);
    let count = this.db.selectFrom('user_groups').select((eb) => eb.fn.countAll<number>().as('n'));
    if (opts.onlyId !== undefined) {
      q = q.where('user_groups.id', '=', opts.onlyId);
      count = count.where('id', '=', opts.onlyId);
    }
    const [rows, total] = await Promise.all([
      q
        .orderBy('user_groups.sort_order')
        .orderBy('user_groups.id')
        .limit(opts.limit)
        .offset((opts.page - 1) * opts.limit)
        .execute(),
      count.executeTakeFirstOrThrow(),
    ]);
    return { rows: rows.map(normalise), total: Number(total.n) };
  }

  async findWithStats(id: number, db: Db = this.db): Promise<GroupWithStats | undefined> {
    const row = await this.withStats(db).where('user_groups.id', '=', id).executeTakeFirst();
    return row && normalise(row);
  }

  findById(id: number, db: Db = this.db): Promise<GroupRow | undefined> {
    return db.selectFrom('user_groups').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByName(name: string, db: Db = this.db): Promise<GroupRow | undefined> {
    return db
      .selectFrom('user_groups')
      .selectAll()
      .where(sql`lower(name)`, '=', name.toLowerCase())
      .executeTakeFirst();
  }

  async insert(group: NewGroup, db: Db = this.db): Promise<number> {
    const r = await db
      .insertInto('user_groups')
      .values({ ...group, ...EMPTY_POOL })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  }

  /**
   * Seeds a group with a fixed id (the default group 1). An explicit id does not move
   * PostgreSQL's sequence, so it is moved past the seeded row.
   */
  async insertDefault(group: NewGroup & { id: number }, dialect: Dialect): Promise<void> {
    await this.db
      .insertInto('user_groups')
      .values({ ...group, ...EMPTY_POOL })
      .onConflict((oc) => oc.doNothing())
      .execute();
    if (dialect === 'postgres') {
      await sql`select setval(pg_get_serial_sequence('user_groups', 'id'), (select max(id) from user_groups))`.execute(
        this.db,
      );
    }
  }

  async update(id: number, patch: GroupPatch, db: Db): Promise<void> {
    // An edit that changes nothing is not an UPDATE with an empty SET (invalid SQL).
    if (Object.keys(patch).length === 0) return;
    await db.updateTable('user_groups').set(patch).where('id', '=', id).execute();
  }

  async delete(id: number, db: Db): Promise<void> {
    await db.deleteFrom('user_groups').where('id', '=', id).execute();
  }

  /**
   * Locks the group row for the rest of the transaction (a no-op update takes the row
   * lock on PostgreSQL; SQLite writers are serialised anyway) and returns it, so that a
   * member count or pool check made after it cannot be raced.
   */
  lock(id: number, db: Db, now: string): Promise<GroupRow | undefined> {
    return db
      .updateTable('user_groups')
      .set({ updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async countMembers(id: number, db: Db): Promise<number> {
    const r = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('group_id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** What a member has received from the group's pool, net of what was reclaimed. */
  async netReceivedFromPool(groupId: number, userId: number, db: Db): Promise<number> {
    const r = await db
      .selectFrom('group_pool_transactions')
      .select((eb) => eb.fn.sum<string | number | null>('amount').as('s'))
      .where('group_id', '=', groupId)
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    // Pool rows record the pool's side: a distribution is negative there.
    return -Number(r.s ?? 0);
  }

  async poolLedgerSum(id: number): Promise<number> {
    const r = await this.db
      .selectFrom('group_pool_transactions')
      .select((eb) => eb.fn.sum<string | number | null>('amount').as('s'))
      .where('group_id', '=', id)
      .executeTakeFirstOrThrow();
    return Number(r.s ?? 0);
  }
}

// PostgreSQL answers counts and averages as strings.
function normalise<T extends { user_count: unknown; avg_credits_used: unknown; avg_tokens_used: unknown }>(
  row: T,
): T & GroupWithStats {
  return {
    ...row,
    user_count: Number(row.user_count),
    avg_credits_used: Math.round(Number(row.avg_credits_used) * 100) / 100,
    avg_tokens_used: Math.round(Number(row.avg_tokens_used) * 100) / 100,
  } as T & GroupWithStats;
}
