import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/types.js';

/** A day range, both ends included, optionally narrowed to one group (0 = users in no group). */
export interface UsageRange {
  from: string;
  to: string;
  groupId?: number;
}

export interface UsageSums {
  messages: number;
  tokens: number;
  credits: number;
  conversations: number;
}

/** Sums of a range per day (`YYYY-MM-DD`), per group id (0 = no group) and per model name. */
export interface UsageTotals {
  byDay: Map<string, UsageSums>;
  byGroup: Map<number, UsageSums>;
  byModel: Map<string, UsageSums>;
}

const n = (v: unknown) => Number(v ?? 0);
const sums = <T extends Partial<Record<keyof UsageSums, unknown>>>(r: T) => ({
  messages: n(r.messages),
  tokens: n(r.tokens),
  credits: n(r.credits),
  conversations: n(r.conversations),
});
const sumCols = {
  messages: sql<string>`sum(messages)`.as('messages'),
  tokens: sql<string>`sum(tokens)`.as('tokens'),
  credits: sql<string>`sum(credits)`.as('credits'),
  conversations: sql<string>`sum(conversations)`.as('conversations'),
};

/**
 * Reads of the usage rollups. The per-(day, group, model) totals answer the platform
 * charts from a few rows per day; the per-user rows are read only where a user or a
 * distinct-user count is asked for. Nothing here reads messages.
 */
export class UsageStatsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  private totalsIn(r: UsageRange) {
    let q = this.db
      .selectFrom('usage_daily_totals')
      .where('usage_daily_totals.day', '>=', r.from)
      .where('usage_daily_totals.day', '<=', r.to);
    if (r.groupId !== undefined) q = q.where('usage_daily_totals.group_id', '=', r.groupId);
    return q;
  }

  private daily(r: UsageRange) {
    // Qualified: the export joins users, which has a group_id of its own.
    let q = this.db
      .selectFrom('usage_daily')
      .where('usage_daily.day', '>=', r.from)
      .where('usage_daily.day', '<=', r.to);
    if (r.groupId !== undefined) q = q.where('usage_daily.group_id', '=', r.groupId);
    return q;
  }

  /**
   * The per-(day, group, model) rows of a range, summed per day, per group and per model
   * here: one read of a few rows per day instead of one grouped query for each.
   */
  async totals(r: UsageRange): Promise<UsageTotals> {
    const rows = await this.totalsIn(r)
      .select(['day', 'group_id', 'model_name', 'messages', 'tokens', 'credits', 'conversations'])
      .execute();
    const totals: UsageTotals = { byDay: new Map(), byGroup: new Map(), byModel: new Map() };
    for (const row of rows) {
      const add = sums(row);
      accumulate(totals.byDay, row.day, add);
      accumulate(totals.byGroup, row.group_id, add);
      accumulate(totals.byModel, row.model_name, add);
    }
    return totals;
  }

  /** Users with at least one turn left standing (a fully refunded day does not count). */
  async activeUsersByDay(r: UsageRange): Promise<Map<string, number>> {
    const rows = await this.daily(r)
      .where('messages', '>', 0)
      .select(['day', sql<string>`count(distinct user_id)`.as('users')])
      .groupBy('day')
      .execute();
    return new Map(rows.map((row) => [row.day, n(row.users)]));
  }

  /** One row per (user, group) with usage in the range: top users, per-group and distinct active counts. */
  async byUser(r: UsageRange) {
    const rows = await this.daily(r)
      .where('messages', '>', 0)
      .select(['user_id', 'group_id', ...Object.values(sumCols)])
      .groupBy(['user_id', 'group_id'])
      .execute();
    return rows.map((row) => ({ userId: row.user_id, groupId: row.group_id, ...sums(row) }));
  }

  /** One user's rows of a range (a few per day). */
  async ofUser(userId: number, from: string, to: string) {
    const rows = await this.db
      .selectFrom('usage_daily')
      .where('user_id', '=', userId)
      .where('day', '>=', from)
      .where('day', '<=', to)
      .select(['day', 'model_name', 'messages', 'tokens', 'credits', 'conversations'])
      .execute();
    return rows.map((row) => ({ day: row.day, model: row.model_name, ...sums(row) }));
  }

  /** The (day, user, model) rows of one day for the charge-back export. */
  exportDay(day: string, groupId: number | undefined) {
    // The API's share of each row: its per-key rows of the day, summed per (user, model, group).
    const api = this.db
      .selectFrom('usage_daily_api')
      .where('day', '=', day)
      .select([
        'user_id',
        'model_name',
        'group_id',
        sql<string>`sum(requests)`.as('requests'),
        sql<string>`sum(tokens)`.as('tokens'),
        sql<string>`sum(credits)`.as('credits'),
      ])
      .groupBy(['user_id', 'model_name', 'group_id'])
      .as('api');
    return this.daily({ from: day, to: day, ...(groupId !== undefined ? { groupId } : {}) })
      .innerJoin('users', 'users.id', 'usage_daily.user_id')
      .leftJoin('user_groups', 'user_groups.id', 'usage_daily.group_id')
      .leftJoin(api, (join) =>
        join
          .onRef('api.user_id', '=', 'usage_daily.user_id')
          .onRef('api.model_name', '=', 'usage_daily.model_name')
          .onRef('api.group_id', '=', 'usage_daily.group_id'),
      )
      .select([
        'usage_daily.day',
        'usage_daily.group_id',
        'user_groups.name as group_name',
        'usage_daily.user_id',
        'users.username',
        'users.email',
        'usage_daily.model_name',
        'usage_daily.messages',
        'usage_daily.tokens',
        'usage_daily.credits',
        'usage_daily.conversations',
        'api.requests as api_requests',
        'api.tokens as api_tokens',
        'api.credits as api_credits',
      ])
      .where('usage_daily.messages', '>', 0)
      .orderBy('user_groups.name')
      .orderBy('users.username')
      .orderBy('usage_daily.model_name')
      .execute();
  }

  /** The API's usage of a range per key (most credits first): the source split and the top keys. */
  async apiByKey(r: UsageRange, limit: number) {
    let q = this.db
      .selectFrom('usage_daily_api as a')
      .innerJoin('users', 'users.id', 'a.user_id')
      .where('a.day', '>=', r.from)
      .where('a.day', '<=', r.to);
    if (r.groupId !== undefined) q = q.where('a.group_id', '=', r.groupId);
    const rows = await q
      .select([
        'a.api_key_id',
        'a.user_id',
        'users.username',
        sql<string>`sum(a.requests)`.as('requests'),
        sql<string>`sum(a.tokens)`.as('tokens'),
        sql<string>`sum(a.credits)`.as('credits'),
      ])
      .groupBy(['a.api_key_id', 'a.user_id', 'users.username'])
      .orderBy(sql`sum(a.credits)`, 'desc')
      .orderBy('a.api_key_id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      apiKeyId: row.api_key_id,
      userId: row.user_id,
      username: row.username,
      requests: n(row.requests),
      tokens: n(row.tokens),
      credits: n(row.credits),
    }));
  }

  /** The API's totals of a range. */
  async apiTotals(r: UsageRange) {
    let q = this.db.selectFrom('usage_daily_api').where('day', '>=', r.from).where('day', '<=', r.to);
    if (r.groupId !== undefined) q = q.where('group_id', '=', r.groupId);
    const row = await q
      .select([
        sql<string>`coalesce(sum(requests), 0)`.as('requests'),
        sql<string>`coalesce(sum(tokens), 0)`.as('tokens'),
        sql<string>`coalesce(sum(credits), 0)`.as('credits'),
      ])
      .executeTakeFirst();
    return { requests: n(row?.requests), tokens: n(row?.tokens), credits: n(row?.credits) };
  }

  /** Live accounts: all, or one group's. */
  async countUsers(groupId?: number): Promise<number> {
    let q = this.db.selectFrom('users').where('deleted_at', 'is', null);
    if (groupId !== undefined) q = q.where('group_id', '=', groupId);
    const row = await q.select(sql<string>`count(*)`.as('n')).executeTakeFirst();
    return n(row?.n);
  }

  /** The ids of one group's live accounts. */
  async liveMemberIds(groupId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('users')
      .where('group_id', '=', groupId)
      .where('deleted_at', 'is', null)
      .select('id')
      .execute();
    return rows.map((r) => r.id);
  }

  async namesOfUsers(ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('users').where('id', 'in', ids).select(['id', 'username']).execute();
    return new Map(rows.map((r) => [r.id, r.username]));
  }

  /** Names of API keys (revoked ones too: usage outlives them). */
  async apiKeyNames(ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('api_keys').where('id', 'in', ids).select(['id', 'name']).execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  async groupsById(ids: number[]) {
    if (ids.length === 0) return new Map<number, { name: string; color: string }>();
    const rows = await this.db
      .selectFrom('user_groups')
      .where('id', 'in', ids)
      .select(['id', 'name', 'color'])
      .execute();
    return new Map(rows.map((r) => [r.id, { name: r.name, color: r.color }]));
  }

  /** Display names of models that still exist; a deleted model keeps its bare name. */
  async modelDisplayNames(names: string[]): Promise<Map<string, string>> {
    if (names.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('ai_models')
      .where('name', 'in', names)
      .select(['name', 'display_name'])
      .execute();
    return new Map(rows.map((m) => [m.name, m.display_name]));
  }
}

/** Adds `add` to the sums kept under `key`. */
export function accumulate<K>(map: Map<K, UsageSums>, key: K, add: UsageSums): void {
  const s = map.get(key);
  if (!s) {
    const { messages, tokens, credits, conversations } = add;
    map.set(key, { messages, tokens, credits, conversations });
    return;
  }
  s.messages += add.messages;
  s.tokens += add.tokens;
  s.credits += add.credits;
  s.conversations += add.conversations;
}
