import { type Kysely, sql } from 'kysely';
import { reusableQueryIn } from '../../db/reusable-query.js';
import type { Database } from '../../db/types.js';

/** Which rollup rows one chat turn counts in. */
export interface UsageKey {
  day: string;
  userId: number;
  /** The user's group when the turn began; null for none. */
  groupId: number | null;
  model: string;
}

export interface UsageDelta {
  messages?: number;
  tokens?: number;
  credits?: number;
  conversations?: number;
}

/**
 * Adds a turn's numbers to its daily rows (per user and model, and per group and model),
 * inside the caller's transaction: the charge, the settlement or the refund and its
 * statistics commit or roll back together. Negative numbers subtract (a refund).
 *
 * Lock order: the caller has already locked the user row; these rows come after it
 * everywhere, so concurrent turns cannot deadlock.
 */
export async function addUsage(trx: Kysely<Database>, key: UsageKey, delta: UsageDelta): Promise<void> {
  const v = {
    messages: delta.messages ?? 0,
    tokens: delta.tokens ?? 0,
    credits: delta.credits ?? 0,
    conversations: delta.conversations ?? 0,
  };
  if (v.messages === 0 && v.tokens === 0 && v.credits === 0 && v.conversations === 0) return;
  const group = key.groupId ?? 0;
  await upsertUserDay(trx, key.day, key.userId, key.model, group, v.messages, v.tokens, v.credits, v.conversations);
  await upsertGroupDay(trx, key.day, group, key.model, v.messages, v.tokens, v.credits, v.conversations);
}

type Counts = { messages: number; tokens: number; credits: number; conversations: number };

/** Each column plus its delta, on the row that was there. */
const added = (table: 'usage_daily' | 'usage_daily_totals', v: Counts) => ({
  messages: sql<number>`${sql.ref(`${table}.messages`)} + ${v.messages}`,
  tokens: sql<number>`${sql.ref(`${table}.tokens`)} + ${v.tokens}`,
  credits: sql<number>`${sql.ref(`${table}.credits`)} + ${v.credits}`,
  conversations: sql<number>`${sql.ref(`${table}.conversations`)} + ${v.conversations}`,
});

// Every chat turn runs these two or four times: their SQL is built once.
const upsertUserDay = reusableQueryIn(
  (
    trx: Kysely<Database>,
    day: string,
    userId: number,
    model: string,
    group: number,
    messages: number,
    tokens: number,
    credits: number,
    conversations: number,
  ) => {
    const v = { messages, tokens, credits, conversations };
    return trx
      .insertInto('usage_daily')
      .values({ day, user_id: userId, model_name: model, group_id: group, ...v })
      .onConflict((oc) =>
        oc.columns(['day', 'user_id', 'model_name', 'group_id']).doUpdateSet(added('usage_daily', v)),
      );
  },
);
const upsertGroupDay = reusableQueryIn(
  (
    trx: Kysely<Database>,
    day: string,
    group: number,
    model: string,
    messages: number,
    tokens: number,
    credits: number,
    conversations: number,
  ) => {
    const v = { messages, tokens, credits, conversations };
    return trx
      .insertInto('usage_daily_totals')
      .values({ day, group_id: group, model_name: model, ...v })
      .onConflict((oc) => oc.columns(['day', 'group_id', 'model_name']).doUpdateSet(added('usage_daily_totals', v)));
  },
);
