import type { AddressInfo } from 'node:net';
import type { Message, NonStreamAnswer } from '@aiplatform/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  addModel,
  createChatApp,
  createConversation,
  eventData,
  eventually,
  expectLedgerConsistent,
  expectRefunded,
  ledger,
  parseSse,
  sendStreamed,
} from '../../../test/chat-helpers.js';
import type { FakeUpstream } from '../../../test/fake-upstream.js';
import type { TestApp } from '../../../test/test-app.js';
import { estimateTokens } from '../../ai/tokens.js';
import { CreditsRepo } from '../credits/credits.repo.js';
import { UsersRepo } from '../users/users.repo.js';
import { ConversationsRepo } from './conversations.repo.js';
import { MessagesRepo } from './messages.repo.js';
import { TurnAccounting } from './turn-accounting.js';

const url = (id: string) => `/api/chat/conversations/${id}/messages`;

describe('chat credits', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  beforeAll(async () => {
    // Races of hundreds of sends by one user: the cap on answers in progress is not what they test.
    ({ t, fake } = await createChatApp({ config: { answersInProgressPerUser: 1000 } }));
    await addModel(t, fake, { name: 'fake-expensive', credits_per_chat: 20 });
  });
  afterEach(async () => {
    await expectLedgerConsistent(t);
  });
  afterAll(async () => {
    await t.close();
  });

  async function user() {
    const { session } = await t.signUp();
    return { token: session.accessToken, id: session.user.id };
  }

  it('lets exactly 50 of 200 simultaneous sends through when the balance covers 50', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token, { model_name: 'fake-expensive' });
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        t.post<NonStreamAnswer>(url(conv.id), { content: `race ${i}`, stream: false }, u.token),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(50);
    expect(statuses.filter((s) => s === 402)).toHaveLength(150);
    for (const r of results.filter((x) => x.status === 402)) {
      expect(r.body.error).toBe('INSUFFICIENT_CREDITS');
      expect(r.body.data).toEqual({ required: 20, balance: 0 });
    }
    const row = await t.userRow(u.id);
    expect(row.credits_used).toBe(row.credits_quota);
    expect(await t.ledgerSum(u.id)).toBe(0);
    const consumed = (await ledger(t, u.id)).filter((l) => l.transaction_type === 'chat_consume');
    expect(consumed).toHaveLength(50);
    expect(new Set(consumed.map((l) => l.balance_after)).size).toBe(50);
    const count = await t.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('conversation_id', '=', conv.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(100);
  });

  it('answers 402 INSUFFICIENT_CREDITS with required and balance, translated, writing nothing', async () => {
    const u = await user();
    await t.db.updateTable('users').set({ credits_quota: 1005, credits_used: 1000 }).where('id', '=', u.id).execute();
    await t.db
      .insertInto('credit_transactions')
      .values({
        user_id: u.id,
        transaction_type: 'admin_deduct',
        amount: -995,
        balance_after: 5,
        description: '',
        created_at: new Date().toISOString(),
      })
      .execute();
    const conv = await createConversation(t, u.token);
    for (const stream of [true, false]) {
      const res = await t.request('POST', url(conv.id), {
        body: { content: 'hi', stream },
        token: u.token,
        lang: 'en-US',
      });
      expect(res.status).toBe(402);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.body).toMatchObject({ error: 'INSUFFICIENT_CREDITS', data: { required: 10, balance: 5 } });
      expect(res.body.message).toBe('Insufficient credits: 10 needed, balance 5');
    }
    expect(await t.db.selectFrom('messages').select('id').where('conversation_id', '=', conv.id).execute()).toEqual([]);
  });

  it('refuses expired credits with 402 CREDITS_EXPIRED even with a balance', async () => {
    const u = await user();
    const past = new Date(t.clock.now().getTime() - 1000).toISOString();
    await t.db.updateTable('users').set({ credits_expire_at: past }).where('id', '=', u.id).execute();
    const conv = await createConversation(t, u.token);
    const res = await t.post(url(conv.id), { content: 'hi', stream: true }, u.token);
    expect(res.status).toBe(402);
    expect(res.body.error).toBe('CREDITS_EXPIRED');
    expect((await t.userRow(u.id)).credits_used).toBe(0);
    // Still valid one hour ahead: allowed.
    const future = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    await t.db.updateTable('users').set({ credits_expire_at: future }).where('id', '=', u.id).execute();
    expect((await t.post(url(conv.id), { content: 'hi', stream: false }, u.token)).status).toBe(200);
  });

  it('charges nothing when the credits system is off, and honours the minimum balance for chatting', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token);
    await t.setSetting('credits', { enabled: false });
    const free = await t.post<NonStreamAnswer>(url(conv.id), { content: 'free', stream: false }, u.token);
    expect(free.body.data.credits_info.credits_consumed).toBe(0);
    expect((await t.userRow(u.id)).credits_used).toBe(0);
    await t.setSetting('credits', { enabled: true, min_credits_for_chat: 5000 });
    const res = await t.post(url(conv.id), { content: 'min', stream: false }, u.token);
    expect(res.status).toBe(402);
    expect(res.body.data).toEqual({ required: 5000, balance: 1000 });
    await t.setSetting('credits', { enabled: true });
  });

  for (const [model, label] of [
    ['fake-error', 'an HTTP error'],
    ['fake-empty', 'an empty answer'],
  ] as const) {
    it(`refunds exactly once and keeps the question unanswered after ${label} (stream)`, async () => {
      const u = await user();
      const conv = await createConversation(t, u.token, { model_name: model });
      const res = await sendStreamed(t, u.token, conv.id, { content: 'fail me' });
      expect(res.events.map((e) => e.event)).toEqual(['connected', 'init', 'error']);
      expect(eventData(res.events, 'error')[0]?.error).toBe('UPSTREAM_ERROR');
      await expectRefunded(t, u, conv.id);
    });
  }

  it('refunds a failed non-stream send and answers 502', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token, { model_name: 'fake-error' });
    const res = await t.post(url(conv.id), { content: 'fail me', stream: false }, u.token);
    expect(res.status).toBe(502);
    expect(res.body.error).toBe('UPSTREAM_ERROR');
    await expectRefunded(t, u, conv.id);
  });

  it('refuses a second refund of the same turn (unique ledger reference)', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token, { model_name: 'fake-error' });
    const res = await sendStreamed(t, u.token, conv.id, { content: 'once' });
    const [init] = eventData(res.events, 'init');
    const accounting = new TurnAccounting(
      t.db,
      new CreditsRepo(t.db),
      new MessagesRepo(t.db),
      new ConversationsRepo(t.db),
      new UsersRepo(t.db),
      () => Promise.resolve('UTC'),
    );
    const ref = {
      userId: u.id,
      conversationId: conv.id,
      cost: 10,
      questionId: init?.user_message.id ?? '',
      answerId: init?.ai_message_id ?? '',
      usage: { day: '2000-01-01', userId: u.id, groupId: null, model: 'fake-error' },
    };
    expect(await accounting.refund(ref, new Date().toISOString())).toBe(false);
    await expectRefunded(t, u, conv.id);
  });

  it('refunds, on the next start, a turn a stopped process left unfinished', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token);
    const res = await sendStreamed(t, u.token, conv.id, { content: 'interrupted' });
    const answerId = eventData(res.events, 'init')[0]?.ai_message_id ?? '';
    // As a crash would leave it: the placeholder never finished.
    const old = new Date(t.clock.now().getTime() - 10 * 60_000).toISOString();
    await t.db
      .updateTable('messages')
      .set({ status: 'streaming', content: '', created_at: old })
      .where('id', '=', answerId)
      .execute();
    t = await t.reopen();
    await expectRefunded(t, u, conv.id);
    t = await t.reopen();
    expect((await ledger(t, u.id)).filter((l) => l.transaction_type === 'system_refund')).toHaveLength(1);
  });

  it('keeps and charges the partial text when the upstream breaks off after some output', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token, { model_name: 'fake-drop' });
    const res = await sendStreamed(t, u.token, conv.id, { content: 'drop it' });
    const partial = eventData(res.events, 'message')
      .map((m) => m.delta)
      .join('');
    expect(partial.length).toBeGreaterThan(0);
    expect(res.events.at(-1)).toMatchObject({ event: 'error', data: { code: 502, error: 'UPSTREAM_ERROR' } });
    const answer = (await t.get<Message[]>(url(conv.id), u.token)).body.data[1];
    expect(answer).toMatchObject({ status: 'error', content: partial });
    // Counted by the text kept, as the user's and the conversation's totals are.
    expect(answer?.tokens).toBe(estimateTokens('\ndrop it\n') + estimateTokens(partial));
    expect((await t.userRow(u.id)).token_used).toBe(answer?.tokens);
    expect((await t.userRow(u.id)).credits_used).toBe(10);
    expect((await ledger(t, u.id)).map((r) => r.transaction_type)).toEqual(['system_reward', 'chat_consume']);
  });

  // A closed connection is not a stop (a reload, a lost network): the answer goes on and is
  // charged once it ends; only the stop call cuts it short (stop.test.ts).
  it('goes on when the client disconnects: the upstream is not aborted, the whole answer is stored and charged once', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token, { model_name: 'fake-slow' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const ac = new AbortController();
    const res = await fetch(`http://127.0.0.1:${port}${url(conv.id)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'stop me', stream: true }),
      signal: ac.signal,
    });
    expect(res.status).toBe(200);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!parseSse(text).events.some((e) => e.event === 'message')) {
      const { value, done } = await reader.read();
      if (done) throw new Error('stream ended before any answer text');
      text += decoder.decode(value, { stream: true });
    }
    const [init] = eventData(parseSse(text).events, 'init');
    ac.abort();

    const seen = await fake.waitFor((r) => r.lastUserText === 'stop me');
    expect(seen.outcome).toBe('completed');
    const answer = await eventually(async () => {
      const row = await t.db
        .selectFrom('messages')
        .selectAll()
        .where('id', '=', init?.ai_message_id ?? '')
        .executeTakeFirst();
      return row?.status === 'complete' ? row : undefined;
    });
    expect(answer.content.startsWith('Echo: stop me')).toBe(true);
    expect(answer.content.endsWith('$$a^2 + b^2 = c^2$$\n')).toBe(true);
    expect(answer.tokens).toBeGreaterThan(0);
    expect((await t.userRow(u.id)).credits_used).toBe(10);
    expect((await ledger(t, u.id)).map((r) => r.transaction_type)).toEqual(['system_reward', 'chat_consume']);
    // After an abort, fetch opens a spare connection that would hold close() for the keep-alive timeout.
    t.app.server.closeAllConnections();
  });
});
