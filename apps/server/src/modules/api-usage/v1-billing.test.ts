import type { ApiKey } from '@aiplatform/contracts';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyHolder } from '../../../test/api-key-helpers.js';
import { createChatApp, createConversation, eventually, expectLedgerConsistent } from '../../../test/chat-helpers.js';
import type { FakeUpstream } from '../../../test/fake-upstream.js';
import type { TestApp } from '../../../test/test-app.js';
import { apiLedger, apiTurns, openaiFor, setBalanceForTest, v1Base } from '../../../test/v1-helpers.js';

/** About 45 chunks 50 ms apart: a little over two seconds of answer. */
const SLOW = '[fake:delay=50]';

/** `/v1` bills by the chat's rules, exactly, under concurrency and failures. */
describe('/v1 billing', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  beforeAll(async () => {
    ({ t, fake } = await createChatApp({ config: { answersInProgressPerUser: 100 } }));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await expectLedgerConsistent(t);
    t.app.server.closeAllConnections();
    await t.close();
  });

  it('keeps ledger sum = balance under 24 concurrent API and chat turns, the balance covering 15', async () => {
    const k = await keyHolder(t);
    await setBalanceForTest(t, k.userId, 150);
    const client = openaiFor(t, k.secret);
    const conversations = await Promise.all(Array.from({ length: 12 }, () => createConversation(t, k.accessToken)));
    const api = Array.from({ length: 12 }, (_, i) =>
      i % 2 === 0
        ? client.chat.completions.create({ model: 'fake-echo', messages: [{ role: 'user', content: `api ${i}` }] })
        : (async () => {
            const s = await client.chat.completions.create({
              model: 'fake-echo',
              messages: [{ role: 'user', content: `api ${i}` }],
              stream: true,
            });
            for await (const _ of s) void _;
          })(),
    );
    const chat = conversations.map(async (c, i) => {
      const res = await t.post(
        `/api/chat/conversations/${c.id}/messages`,
        { content: `chat ${i}`, stream: false },
        k.accessToken,
      );
      if (res.status !== 200) throw Object.assign(new Error(res.text), { status: res.status });
    });
    const results = await Promise.allSettled([...api, ...chat]);
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    expect(ok).toBe(15);
    for (const r of results)
      if (r.status === 'rejected') expect((r.reason as { status?: number }).status).toBeOneOf([402, 429]);
    const user = await t.userRow(k.userId);
    expect(user.credits_used).toBe(150);
    expect(await t.ledgerSum(k.userId)).toBe(user.credits_quota - 150);
    await expectLedgerConsistent(t);
  });

  it("counts API credits in the chat's usage caps: a request past a cap is insufficient_quota", async () => {
    const k = await keyHolder(t);
    const admin = await t.loginAsAdmin();
    const set = await t.put(
      `/api/admin/users/${k.userId}/caps`,
      { caps: [{ period: 'day', credits: 25 }], alerts: [] },
      admin.accessToken,
    );
    expect(set.status, set.text).toBe(200);
    const client = openaiFor(t, k.secret);
    const ask = () =>
      client.chat.completions.create({ model: 'fake-echo', messages: [{ role: 'user', content: 'cap' }] });
    await ask();
    await ask();
    const refused: unknown = await ask().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(429);
    expect((refused as InstanceType<typeof OpenAI.APIError>).code).toBe('insufficient_quota');
    expect((await t.userRow(k.userId)).credits_used).toBe(20);
    // The chat shares the counter: its next turn is refused by the same cap.
    const c = await createConversation(t, k.accessToken);
    const chat = await t.post(
      `/api/chat/conversations/${c.id}/messages`,
      { content: 'x', stream: false },
      k.accessToken,
    );
    expect(chat.status).toBe(429);
    expect(chat.body.error).toBe('CAP_REACHED');
  });

  it('a client leaving mid-stream stops the upstream; the output so far stays charged (a stop)', async () => {
    const k = await keyHolder(t);
    const ac = new AbortController();
    const stream = await openaiFor(t, k.secret).chat.completions.create(
      { model: 'fake-echo', messages: [{ role: 'user', content: `${SLOW} leave early` }], stream: true },
      { signal: ac.signal },
    );
    let text = '';
    try {
      for await (const c of stream) {
        text += c.choices[0]?.delta.content ?? '';
        if (text.length > 20) ac.abort();
      }
    } catch {
      // The client's own abort: what leaving looks like from its side.
    }
    expect(text.length).toBeGreaterThan(20);
    const upstream = await fake.waitFor((r) => r.lastUserText.includes('leave early'));
    expect(upstream.outcome).toBe('client-closed');
    const turn = await eventually(async () => {
      const [row] = await apiTurns(t, k.userId);
      return row?.status === 'streaming' ? undefined : row;
    });
    expect(turn).toMatchObject({ status: 'stopped', cost: 10 });
    expect(turn.tokens).toBeGreaterThan(0);
    expect((await apiLedger(t, k.userId)).map((r) => r.transaction_type)).toEqual(['chat_consume']);
    expect((await t.userRow(k.userId)).credits_used).toBe(10);
  });

  it('a client leaving before any output is refunded, and the upstream call is closed', async () => {
    const k = await keyHolder(t);
    const ac = new AbortController();
    const pending = openaiFor(t, k.secret).chat.completions.create(
      {
        model: 'fake-echo',
        messages: [{ role: 'user', content: '[fake:ttft=3000] gone before a word' }],
        stream: true,
      },
      { signal: ac.signal },
    );
    await fake.waitFor((r) => r.lastUserText.includes('gone before a word'), { ended: false });
    ac.abort();
    await expect(pending).rejects.toThrow();
    const upstream = await fake.waitFor((r) => r.lastUserText.includes('gone before a word'));
    expect(upstream.outcome).toBe('client-closed');
    const turn = await eventually(async () => {
      const [row] = await apiTurns(t, k.userId);
      return row?.status === 'streaming' ? undefined : row;
    });
    expect(turn.status).toBe('refunded');
    expect((await apiLedger(t, k.userId)).map((r) => [r.transaction_type, r.amount])).toEqual([
      ['chat_consume', -10],
      ['system_refund', 10],
    ]);
    expect((await t.userRow(k.userId)).credits_used).toBe(0);
  });

  it('holds a key to its credit limit exactly under 12 concurrent requests', async () => {
    const k = await keyHolder(t, { credit_limit: 50, period: 'day' });
    const client = openaiFor(t, k.secret);
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        client.chat.completions.create({ model: 'fake-echo', messages: [{ role: 'user', content: `limit ${i}` }] }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    for (const r of results.filter((x) => x.status === 'rejected')) {
      expect(r.reason).toBeInstanceOf(OpenAI.RateLimitError);
      expect(r.reason).toMatchObject({ status: 429, code: 'insufficient_quota' });
      expect((r.reason as Error).message).toMatch(/credit limit/);
    }
    expect((await t.userRow(k.userId)).credits_used).toBe(50);
    // The key's owner sees the spend in the key list.
    const listed = await t.get<ApiKey[]>('/api/keys', k.accessToken);
    expect(listed.body.data.find((x) => x.id === k.id)?.spent_in_period).toBe(50);
    // A refunded request gives its share of the limit back.
    await t.db.updateTable('api_turns').set({ status: 'refunded' }).where('api_key_id', '=', k.id).execute();
    const again = await client.chat.completions.create({
      model: 'fake-echo',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(again.object).toBe('chat.completion');
  });

  it('settles by the sweep a turn whose instance died: refunded without output, charged with some', async () => {
    const k = await keyHolder(t);
    const past = new Date(t.clock.now().getTime() - 60_000).toISOString();
    const open = (id: string) =>
      t.apiUsage.accounting.open({
        id,
        userId: k.userId,
        groupId: null,
        key: { id: k.id, credit_limit: null, period: null },
        model: 'fake-echo',
        kind: 'chat',
        cost: 10,
        required: 10,
        day: t.clock.now().toISOString().slice(0, 10),
        timeZone: 'UTC',
        now: past,
        owner: 'an-instance-that-died',
        leaseUntil: past,
      });
    const silent = crypto.randomUUID();
    const spoke = crypto.randomUUID();
    await open(silent);
    await open(spoke);
    await t.db.updateTable('api_turns').set({ produced: 1 }).where('id', '=', spoke).execute();
    expect((await t.userRow(k.userId)).credits_used).toBe(20);
    expect(await t.apiUsage.sweep.sweep()).toBe(2);
    expect(await t.apiUsage.sweep.sweep()).toBe(0);
    const turns = await apiTurns(t, k.userId);
    expect(Object.fromEntries(turns.map((x) => [x.id, x.status]))).toEqual({ [silent]: 'refunded', [spoke]: 'error' });
    expect((await t.userRow(k.userId)).credits_used).toBe(10);
    await expectLedgerConsistent(t);
  });

  it('answers a streamed request end to end over plain HTTP (curl’s view)', async () => {
    const k = await keyHolder(t);
    const res = await fetch(`${v1Base(t)}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${k.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'fake-echo', messages: [{ role: 'user', content: 'curl' }], stream: true }),
    });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const body = await res.text();
    expect(body.trim().endsWith('data: [DONE]')).toBe(true);
  });
});
