import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { applyCreditChange } from '../src/modules/credits/credits-writer.js';
import type { TestApp } from './test-app.js';

/** The official client, pointed at a listening test app with a key's secret. */
export function openaiFor(t: TestApp, secret: string): OpenAI {
  return new OpenAI({
    apiKey: secret,
    baseURL: v1Base(t),
    maxRetries: 0,
    timeout: 20_000,
    // Refusals are worded in the caller's language; the tests read the English ones.
    defaultHeaders: { 'accept-language': 'en-US' },
  });
}

/** `http://127.0.0.1:<port>/v1` of a listening test app. */
export function v1Base(t: TestApp): string {
  const { port } = t.app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}/v1`;
}

/** An API turn's row, by its ledger reference. */
export function apiTurns(t: TestApp, userId: number) {
  return t.db.selectFrom('api_turns').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
}

/** A user's ledger rows with their source and key. */
export function apiLedger(t: TestApp, userId: number) {
  return t.db
    .selectFrom('credit_transactions')
    .select(['transaction_type', 'amount', 'source', 'api_key_id', 'reference_id', 'model_name'])
    .where('user_id', '=', userId)
    .where('transaction_type', 'in', ['chat_consume', 'system_refund'])
    .orderBy('id')
    .execute();
}

/** Sets a user's balance the way an administrator would (one ledger row), keeping the ledger whole. */
export async function setBalanceForTest(t: TestApp, userId: number, balance: number): Promise<void> {
  const u = await t.userRow(userId);
  const delta = balance - (u.credits_quota - u.credits_used);
  if (delta === 0) return;
  await applyCreditChange(t.db, {
    userId,
    type: delta > 0 ? 'admin_add' : 'admin_deduct',
    amount: delta,
    description: delta > 0 ? 'server.ledger.adminAdd' : 'server.ledger.adminDeduct',
    now: t.clock.now().toISOString(),
  });
}
