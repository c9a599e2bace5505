import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import type { Conversation, CreateConversationBody, StreamEvent } from '@aiplatform/contracts';
import { expect } from 'vitest';
import { resolveAppSecret } from '../src/lib/auth/secrets.js';
import { SecretBox } from '../src/lib/auth/secret-box.js';
import { ModelsRepo } from '../src/modules/models/models.repo.js';
import { type NewModelInput, ModelsService } from '../src/modules/models/models.service.js';
import { type FakeUpstream, startFakeUpstream } from './fake-upstream.js';
import { type TestApp, type TestAppOptions, createTestApp } from './test-app.js';

export const FAKE_KEY = 'sk-test-FAKEKEY-0123456789';

/** A test app with a fake upstream and one model per fake mode (all OpenAI-compatible, on that upstream). */
export async function createChatApp(options: TestAppOptions = {}): Promise<{ t: TestApp; fake: FakeUpstream }> {
  const fake = await startFakeUpstream({ slowDelayMs: 30 });
  const t = await createTestApp(options);
  const close = t.close.bind(t);
  t.close = async () => {
    await close();
    await fake.close();
  };
  for (const [name, extra] of [
    ['fake-echo', { sort_order: 1 }],
    ['fake-vision', { image_upload_enabled: true, sort_order: 2 }],
    ['fake-slow', {}],
    ['fake-error', {}],
    ['fake-drop', {}],
    ['fake-hang', {}],
    ['fake-empty', {}],
    ['fake-length', {}],
  ] as const) {
    await addModel(t, fake, { name, ...extra });
  }
  return { t, fake };
}

/** Adds a model the way an administrator would (key sealed with the app's secret). */
export async function addModel(
  t: TestApp,
  fake: FakeUpstream,
  input: Partial<NewModelInput> & { name: string },
): Promise<number> {
  const box = new SecretBox(resolveAppSecret(t.config.appSecret, t.config.dataDir));
  const models = new ModelsService(new ModelsRepo(t.db), box, t.clock);
  return models.create({ provider: 'openai_compatible', api_key: FAKE_KEY, api_endpoint: fake.url, ...input });
}

export async function createConversation(
  t: TestApp,
  token: string,
  body: Partial<CreateConversationBody> = {},
): Promise<Conversation> {
  const res = await t.post<Conversation>('/api/chat/conversations', { model_name: 'fake-echo', ...body }, token);
  if (res.status !== 201) throw new Error(`create conversation: ${res.status} ${res.text}`);
  return res.body.data;
}

/** Parses a text/event-stream body into events; comment lines (heartbeats) are counted apart. */
export function parseSse(text: string): { events: StreamEvent[]; comments: string[] } {
  const events: StreamEvent[] = [];
  const comments: string[] = [];
  for (const block of text.split('\n\n')) {
    if (!block.trim()) continue;
    let event = 'message';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) comments.push(line.slice(1).trim());
      else if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data += line.slice(6);
    }
    if (data) events.push({ event, data: JSON.parse(data) as unknown } as StreamEvent);
  }
  return { events, comments };
}

/** Sends a message through inject and returns the status, headers and the parsed events. */
export async function sendStreamed(t: TestApp, token: string, conversationId: string, body: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/chat/conversations/${conversationId}/messages`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ stream: true, ...body }),
  });
  return { status: res.statusCode, headers: res.headers, text: res.body, ...parseSse(res.body) };
}

/**
 * Opens a streamed send over real HTTP (the app must listen) and returns a reader of its
 * events: `readUntil` reads until the event names seen satisfy `seen`; `cancel` leaves as a
 * client closing the connection would.
 */
export async function openStream(t: TestApp, token: string, conversationId: string, content: string) {
  const { port } = t.app.server.address() as AddressInfo;
  const res = await fetch(`http://127.0.0.1:${port}/api/chat/conversations/${conversationId}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ content, stream: true }),
  });
  expect(res.status).toBe(200);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  const readUntil = async (seen: (names: string[]) => boolean) => {
    while (!seen(parseSse(text).events.map((e) => e.event))) {
      const { value, done } = await reader.read();
      if (done) return parseSse(text).events;
      text += decoder.decode(value, { stream: true });
    }
    return parseSse(text).events;
  };
  return { readUntil, cancel: () => reader.cancel() };
}

export function eventData<N extends StreamEvent['event']>(events: StreamEvent[], name: N) {
  return events.filter((e) => e.event === name).map((e) => e.data as Extract<StreamEvent, { event: N }>['data']);
}

/** Ledger invariant, checked for every user: sum(ledger) == credits_quota − credits_used. */
export async function expectLedgerConsistent(t: TestApp): Promise<void> {
  const users = await t.db.selectFrom('users').select(['id', 'credits_quota', 'credits_used']).execute();
  for (const u of users) {
    expect(await t.ledgerSum(u.id), `ledger of user ${u.id}`).toBe(u.credits_quota - u.credits_used);
    expect(u.credits_used, `user ${u.id} never overdrawn`).toBeLessThanOrEqual(u.credits_quota);
    // The usage statistics are written in the same transactions as the charges and refunds.
    expect(await rolledUpCredits(t, u.id), `usage rollup of user ${u.id}`).toBe(await netChatSpend(t, u.id));
  }
}

/** Credits a user's chat turns cost, refunds taken off, by the ledger. */
async function netChatSpend(t: TestApp, userId: number): Promise<number> {
  const row = await t.db
    .selectFrom('credit_transactions')
    .where('user_id', '=', userId)
    .where('transaction_type', 'in', ['chat_consume', 'system_refund'])
    .select(sql<string>`coalesce(sum(amount), 0)`.as('n'))
    .executeTakeFirstOrThrow();
  return 0 - Number(row.n);
}

/** Credits the usage rollups hold for a user. */
async function rolledUpCredits(t: TestApp, userId: number): Promise<number> {
  const row = await t.db
    .selectFrom('usage_daily')
    .where('user_id', '=', userId)
    .select(sql<string>`coalesce(sum(credits), 0)`.as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Polls until `check` returns a value (not undefined); for state written after a response ended. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A user's ledger rows, oldest first. */
export function ledger(t: TestApp, userId: number) {
  return t.db
    .selectFrom('credit_transactions')
    .select(['transaction_type', 'amount', 'balance_after', 'reference_id'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}

/**
 * One charge, one refund of the same reference, the balance restored, the answer removed
 * and the question kept as `unanswered` (so it can be seen and sent again).
 */
export async function expectRefunded(t: TestApp, u: { id: number }, convId: string) {
  const rows = await ledger(t, u.id);
  const consume = rows.filter((r) => r.transaction_type === 'chat_consume');
  const refund = rows.filter((r) => r.transaction_type === 'system_refund');
  expect(consume).toHaveLength(1);
  expect(refund).toEqual([
    { transaction_type: 'system_refund', amount: 10, balance_after: 1000, reference_id: consume[0]?.reference_id },
  ]);
  expect((await t.userRow(u.id)).credits_used).toBe(0);
  const left = await t.db
    .selectFrom('messages')
    .select(['role', 'status'])
    .where('conversation_id', '=', convId)
    .execute();
  expect(left).toEqual([{ role: 'user', status: 'unanswered' }]);
  const conv = await t.db
    .selectFrom('conversations')
    .select('message_count')
    .where('id', '=', convId)
    .executeTakeFirstOrThrow();
  expect(conv.message_count).toBe(1);
}
