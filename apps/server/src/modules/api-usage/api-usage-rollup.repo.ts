import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/types.js';

/** Which `usage_daily_api` row an API turn counts in. */
export interface ApiUsageKey {
  day: string;
  userId: number;
  groupId: number | null;
  apiKeyId: number;
  model: string;
}

/**
 * Adds an API turn's numbers to its key's daily row, in the caller's transaction (the
 * charge, settlement or refund and its statistics commit together). Negative numbers
 * subtract. The same turn is also counted in the usage totals (`addUsage`).
 */
export async function addApiUsage(
  trx: Kysely<Database>,
  key: ApiUsageKey,
  delta: { requests?: number; tokens?: number; credits?: number },
): Promise<void> {
  const v = { requests: delta.requests ?? 0, tokens: delta.tokens ?? 0, credits: delta.credits ?? 0 };
  if (v.requests === 0 && v.tokens === 0 && v.credits === 0) return;
  await trx
    .insertInto('usage_daily_api')
    .values({
      day: key.day,
      user_id: key.userId,
      api_key_id: key.apiKeyId,
      model_name: key.model,
      group_id: key.groupId ?? 0,
      ...v,
    })
    .onConflict((oc) =>
      oc.columns(['day', 'user_id', 'api_key_id', 'model_name', 'group_id']).doUpdateSet({
        requests: sql<number>`usage_daily_api.requests + ${v.requests}`,
        tokens: sql<number>`usage_daily_api.tokens + ${v.tokens}`,
        credits: sql<number>`usage_daily_api.credits + ${v.credits}`,
      }),
    )
    .execute();
}
