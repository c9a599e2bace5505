import type { Conversation, Message, NonStreamAnswer } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addModel,
  createChatApp,
  createConversation,
  eventData,
  expectLedgerConsistent,
  sendStreamed,
} from '../../../test/chat-helpers.js';
import { type FakeUpstream, chunksOf, fakeAnswer } from '../../../test/fake-upstream.js';
import type { TestApp } from '../../../test/test-app.js';

const url = (id: string) => `/api/chat/conversations/${id}/messages`;

describe('sending a message', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  let token: string;
  let userId: number;
  beforeAll(async () => {
    ({ t, fake } = await createChatApp());
    const { session } = await t.signUp();
    token = session.accessToken;
    userId = session.user.id;
    await addModel(t, fake, { name: 'fake-nostream', stream_enabled: false });
  });
  afterAll(async () => {
    await expectLedgerConsistent(t);
    await t.close();
  });

  it('streams connected, init, message… and done as server-sent events, and stores the answer', async () => {
    const conv = await createConversation(t, token);
    const before = await t.userRow(userId);
    const res = await sendStreamed(t, token, conv.id, { content: 'hello stream' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(res.headers['cache-control']).toContain('no-cache');
    expect(res.headers['x-accel-buffering']).toBe('no');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['x-request-id']).toBeTruthy();

    const names = res.events.map((e) => e.event);
    expect(names.slice(0, 2)).toEqual(['connected', 'init']);
    expect(names.at(-1)).toBe('done');
    expect(names.slice(2, -1).every((n) => n === 'message')).toBe(true);
    expect(res.events[0]?.data).toEqual({ status: 'connected' });

    const [init] = eventData(res.events, 'init');
    expect(init?.user_message).toMatchObject({
      role: 'user',
      content: 'hello stream',
      conversation_id: conv.id,
      status: 'complete',
    });
    expect(init?.credits_info).toEqual({
      credits_consumed: 10,
      credits_remaining: before.credits_quota - before.credits_used - 10,
      model_credits_per_chat: 10,
    });

    const messages = eventData(res.events, 'message');
    const [done] = eventData(res.events, 'done');
    const expected = fakeAnswer('hello stream');
    expect(messages.map((m) => m.delta).join('')).toBe(expected);
    expect(messages.at(-1)?.fullContent).toBe(expected);
    expect(done).toMatchObject({ content: expected, messageId: init?.ai_message_id, finish_reason: 'stop' });

    // Tokens are the provider's usage (prompt + completion), not an estimate.
    const usage = Math.ceil('hello stream'.length / 4) + chunksOf(expected).length;
    expect(done?.tokens).toBe(usage);
    const stored = (await t.get<Message[]>(url(conv.id), token)).body.data;
    expect(stored.map((m) => [m.id, m.role, m.status])).toEqual([
      [init?.user_message.id, 'user', 'complete'],
      [init?.ai_message_id, 'assistant', 'complete'],
    ]);
    expect(stored[1]).toMatchObject({ content: expected, tokens: usage, model_name: 'fake-echo' });
    expect((await t.userRow(userId)).token_used).toBe(before.token_used + usage);
    const after = (await t.get<Conversation>(`/api/chat/conversations/${conv.id}`, token)).body.data;
    expect(after).toMatchObject({ message_count: 2, total_tokens: usage });
    expect(after.last_message_at).not.toBeNull();
  });

  it('coalesces bursts of deltas into fewer events, losing nothing', async () => {
    const conv = await createConversation(t, token);
    const res = await sendStreamed(t, token, conv.id, { content: 'long one [fake:repeat=20]' });
    const messages = eventData(res.events, 'message');
    const expected = fakeAnswer('long one [fake:repeat=20]', { repeat: 20 });
    expect(messages.map((m) => m.delta).join('')).toBe(expected);
    expect(messages.length).toBeLessThan(chunksOf(expected).length / 4);
  });

  it('sends only deltas when the client asks for delta_only', async () => {
    const conv = await createConversation(t, token);
    const res = await sendStreamed(t, token, conv.id, { content: 'deltas', stream_options: { delta_only: true } });
    const messages = eventData(res.events, 'message');
    expect(messages.length).toBeGreaterThan(0);
    for (const m of messages) expect(Object.keys(m)).toEqual(['delta']);
    expect(messages.map((m) => m.delta).join('')).toBe(eventData(res.events, 'done')[0]?.content);
  });

  it('answers with JSON in non-stream mode', async () => {
    const conv = await createConversation(t, token);
    const res = await t.post<NonStreamAnswer>(url(conv.id), { content: 'whole please', stream: false }, token);
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.user_message).toMatchObject({ role: 'user', content: 'whole please' });
    expect(d.assistant_message).toMatchObject({
      role: 'assistant',
      content: fakeAnswer('whole please'),
      status: 'complete',
    });
    expect(d.assistant_message.tokens).toBeGreaterThan(0);
    expect(d.credits_info.credits_consumed).toBe(10);
    expect(d.conversation).toMatchObject({ id: conv.id, message_count: 2, title: 'whole please' });
    expect(fake.requests.find((r) => r.lastUserText === 'whole please')?.stream).toBe(false);
  });

  it('uses non-stream mode for a model without streaming, whatever the client asks', async () => {
    const conv = await createConversation(t, token, { model_name: 'fake-nostream' });
    const res = await t.post<NonStreamAnswer>(url(conv.id), { content: 'no stream model', stream: true }, token);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.body.data.assistant_message.content).toContain('Echo: no stream model');
    expect(fake.requests.find((r) => r.lastUserText === 'no stream model')?.stream).toBe(false);
  });

  it('names an unnamed conversation after the first message (30 characters), once', async () => {
    const conv = await createConversation(t, token);
    const text = 'A   fairly long\nquestion about the history of typesetting systems';
    await sendStreamed(t, token, conv.id, { content: text });
    const title = (await t.get<Conversation>(`/api/chat/conversations/${conv.id}`, token)).body.data.title;
    expect(title).toBe('A fairly long question about t');
    await sendStreamed(t, token, conv.id, { content: 'something else' });
    expect((await t.get<Conversation>(`/api/chat/conversations/${conv.id}`, token)).body.data.title).toBe(title);
    const named = await createConversation(t, token, { title: 'Kept' });
    await sendStreamed(t, token, named.id, { content: 'hello' });
    expect((await t.get<Conversation>(`/api/chat/conversations/${named.id}`, token)).body.data.title).toBe('Kept');
  });

  it('sends the system prompt, the temperature and only the last context_length messages upstream', async () => {
    const conv = await createConversation(t, token, {
      context_length: 2,
      system_prompt: 'You are terse.',
      ai_temperature: 0.4,
    });
    for (const content of ['m1', 'm2', 'm3']) await t.post(url(conv.id), { content, stream: false }, token);
    const third = fake.requests.find((r) => r.lastUserText === 'm3');
    expect(third?.temperature).toBe(0.4);
    expect(third?.messages.map((m) => [m.role, String(m.content).split('\n')[0]])).toEqual([
      ['system', 'You are terse.'],
      ['user', 'm2'],
      ['assistant', 'Echo: m2'],
      ['user', 'm3'],
    ]);

    await t.put(`/api/chat/conversations/${conv.id}`, { context_length: 0, system_prompt: '' }, token);
    await t.post(url(conv.id), { content: 'm4', stream: false }, token);
    expect(fake.requests.find((r) => r.lastUserText === 'm4')?.messages).toEqual([{ role: 'user', content: 'm4' }]);

    await t.put(`/api/chat/conversations/${conv.id}`, { context_length: 1000 }, token);
    await t.post(url(conv.id), { content: 'm5', stream: false }, token);
    expect(fake.requests.find((r) => r.lastUserText === 'm5')?.messages).toHaveLength(9);
  });

  it('leaves failed exchanges out of the history', async () => {
    const conv = await createConversation(t, token, { model_name: 'fake-error' });
    await sendStreamed(t, token, conv.id, { content: 'lost' });
    await t.put(`/api/chat/conversations/${conv.id}`, { model_name: 'fake-echo' }, token);
    await sendStreamed(t, token, conv.id, { content: 'after failure' });
    expect(fake.requests.find((r) => r.lastUserText === 'after failure')?.messages).toEqual([
      { role: 'user', content: 'after failure' },
    ]);
  });

  it('reports finish_reason length when the model ran out of room', async () => {
    const conv = await createConversation(t, token, { model_name: 'fake-length' });
    const res = await sendStreamed(t, token, conv.id, { content: 'cut' });
    expect(eventData(res.events, 'done')[0]?.finish_reason).toBe('length');
  });

  it('refuses an empty message without an image before charging', async () => {
    const conv = await createConversation(t, token);
    const before = await t.userRow(userId);
    for (const content of ['', '   \n ']) {
      const res = await t.request('POST', url(conv.id), { body: { content }, token, lang: 'en-US' });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('VALIDATION_FAILED');
      expect(res.body.data.errors).toEqual(['Please enter a message or attach an image']);
    }
    expect((await t.userRow(userId)).credits_used).toBe(before.credits_used);
  });
});

describe('stream heartbeat', () => {
  let t: TestApp;
  beforeAll(async () => {
    ({ t } = await createChatApp({ config: { streamHeartbeatMs: 40 } }));
  });
  afterAll(async () => {
    await t.close();
  });

  it('sends a `: heartbeat` comment while the answer is slow', async () => {
    const { session } = await t.signUp();
    const conv = await createConversation(t, session.accessToken, { model_name: 'fake-slow' });
    const res = await sendStreamed(t, session.accessToken, conv.id, { content: 'take your time' });
    expect(res.comments).toContain('heartbeat');
    expect(res.events.at(-1)?.event).toBe('done');
  });
});
