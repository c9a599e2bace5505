import { type Insertable, type Kysely, sql } from 'kysely';
import type { ApiTurnsTable } from '../../db/api-usage-tables.js';
import type { Database, Db } from '../../db/types.js';

/** Who may settle an API turn: the instance that owns it, or anyone once its lease ran out. */
export type ApiTurnClaim = { owner: string } | { leaseExpiredAt: string };

export type ApiTurnRow = Awaited<ReturnType<ApiTurnsRepo['findAbandoned']>>[number];

/** The end of a turn as stored. */
export interface ApiTurnEnd {
  status: 'complete' | 'stopped' | 'error' | 'refunded';
  promptTokens: number;
  completionTokens: number;
  tokens: number;
  now: string;
}

/** The `api_turns` rows: one per request through a personal API key. */
export class ApiTurnsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(trx: Db, row: Insertable<ApiTurnsTable>): Promise<void> {
    await trx.insertInto('api_turns').values(row).execute();
  }

  /**
   * Credits a key has taken on turns begun on `fromDay` or later (null: ever), refunded
   * turns left out. Read inside the reservation after the owner's row lock, so it is exact.
   */
  async spentSince(db: Db, apiKeyId: number, fromDay: string | null): Promise<number> {
    let q = db
      .selectFrom('api_turns')
      .select(sql<number>`coalesce(sum(cost), 0)`.as('spent'))
      .where('api_key_id', '=', apiKeyId)
      .where('status', '<>', 'refunded');
    if (fromDay !== null) q = q.where('day', '>=', fromDay);
    const r = await q.executeTakeFirst();
    return Number(r?.spent ?? 0);
  }

  /** Stores how a turn ended, if the claim still allows it; false when it was settled already. */
  async finish(trx: Db, id: string, end: ApiTurnEnd, claim: ApiTurnClaim): Promise<boolean> {
    let q = trx
      .updateTable('api_turns')
      .set({
        status: end.status,
        prompt_tokens: end.promptTokens,
        completion_tokens: end.completionTokens,
        tokens: end.tokens,
        finished_at: end.now,
        owner: null,
        lease_until: null,
      })
      .where('id', '=', id)
      .where('status', '=', 'streaming');
    q = 'owner' in claim ? q.where('owner', '=', claim.owner) : q.where('lease_until', '<', claim.leaseExpiredAt);
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Marks turns that produced output (they are charged even if their instance dies). */
  async markProduced(owner: string, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('api_turns')
      .set({ produced: 1 })
      .where('owner', '=', owner)
      .where('status', '=', 'streaming')
      .where('id', 'in', ids)
      .execute();
  }

  /** Extends the leases of this instance's turns in progress. */
  async renewLeases(owner: string, ids: readonly string[], until: string): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('api_turns')
      .set({ lease_until: until })
      .where('owner', '=', owner)
      .where('status', '=', 'streaming')
      .where('id', 'in', ids)
      .execute();
  }

  /** Turns still in progress whose lease ran out: their instance is gone. */
  findAbandoned(leaseExpiredAt: string, limit: number) {
    return this.db
      .selectFrom('api_turns')
      .select(['id', 'user_id', 'api_key_id', 'group_id', 'model_name', 'day', 'cost', 'produced', 'created_at'])
      .where('status', '=', 'streaming')
      .where('lease_until', '<', leaseExpiredAt)
      .orderBy('created_at')
      .limit(limit)
      .execute();
  }

  findOne(id: string) {
    return this.db.selectFrom('api_turns').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
