import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Message, StreamEvent } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createChatApp,
  createConversation,
  eventData,
  eventually,
  expectLedgerConsistent,
  ledger,
  openStream,
  parseSse,
} from '../../../test/chat-helpers.js';
import type { FakeUpstream } from '../../../test/fake-upstream.js';
import type { TestApp } from '../../../test/test-app.js';

const REDIS_URL = process.env.TEST_REDIS_URL || undefined;
const messagesUrl = (id: string) => `/api/chat/conversations/${id}/messages`;
const streamUrl = (id: string) => `/api/chat/conversations/${id}/stream`;
const stopUrl = (id: string) => `/api/chat/conversations/${id}/stop`;
/** About 45 chunks 50 ms apart: a little over two seconds of answer. */
const SLOW = '[fake:delay=50]';

/** GET …/stream over real HTTP (the app must listen), read until the answer ends. */
async function watch(t: TestApp, token: string, conversationId: string, query = '') {
  const { port } = t.app.server.address() as AddressInfo;
  const res = await fetch(`http://127.0.0.1:${port}${streamUrl(conversationId)}${query}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  const readUntil = async (seen: (names: string[]) => boolean) => {
    while (!seen(parseSse(text).events.map((e) => e.event))) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    return parseSse(text).events;
  };
  return { readUntil, cancel: () => reader.cancel() };
}

/** The text a watcher pieced together: the resumed text, then every delta. */
function textOf(events: StreamEvent[]): string {
  const [resume] = eventData(events, 'resume');
  return (
    (resume?.content ?? '') +
    eventData(events, 'message')
      .map((m) => m.delta)
      .join('')
  );
}

const isEnd = (names: string[]) => names.includes('done') || names.includes('error');

async function storedAnswer(t: TestApp, token: string, conversationId: string) {
  return (await t.get<Message[]>(messagesUrl(conversationId), token)).body.data[1];
}

describe('answers that outlive their connection, and GET /chat/conversations/{id}/stream', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  beforeAll(async () => {
    ({ t, fake } = await createChatApp());
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await expectLedgerConsistent(t);
    t.app.server.closeAllConnections();
    await t.close();
  });

  async function user() {
    const { session } = await t.signUp();
    return { token: session.accessToken, id: session.user.id };
  }

  it('goes on when the client disconnects: the upstream is not aborted, the answer is stored whole and charged once', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token, { model_name: 'fake-slow' });
    const sender = await openStream(t, u.token, conv.id, 'leave early');
    await sender.readUntil((names) => names.includes('message'));
    await sender.cancel();

    const seen = await fake.waitFor((r) => r.lastUserText === 'leave early');
    expect(seen.outcome).toBe('completed');
    const answer = await eventually(async () => {
      const a = await storedAnswer(t, u.token, conv.id);
      return a?.status === 'complete' ? a : undefined;
    });
    expect(answer.content.startsWith('Echo: leave early')).toBe(true);
    expect(answer.content.endsWith('$$a^2 + b^2 = c^2$$\n')).toBe(true);
    expect((await t.userRow(u.id)).credits_used).toBe(10);
    expect((await ledger(t, u.id)).map((r) => r.transaction_type)).toEqual(['system_reward', 'chat_consume']);
    expect(await t.ledgerSum(u.id)).toBe(1000 - 10);
  });

  it('goes on when a non-streamed send loses its client, stores the answer, and lets a page watch it end', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token, { model_name: 'fake-slow' });
    const { port } = t.app.server.address() as AddressInfo;
    const ac = new AbortController();
    const sent = fetch(`http://127.0.0.1:${port}${messagesUrl(conv.id)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: `whole, then gone ${SLOW}`, stream: false }),
      signal: ac.signal,
    }).catch(() => undefined);
    await fake.waitFor((r) => r.lastUserText.startsWith('whole, then gone'), { ended: false });
    ac.abort();
    await sent;
    const events = await (await watch(t, u.token, conv.id)).readUntil(isEnd);

    expect((await fake.waitFor((r) => r.lastUserText.startsWith('whole, then gone'))).outcome).toBe('completed');
    const answer = await eventually(async () => {
      const a = await storedAnswer(t, u.token, conv.id);
      return a?.status === 'complete' ? a : undefined;
    });
    expect(answer.content.startsWith('Echo: whole, then gone')).toBe(true);
    // A whole answer has no pieces: the watcher gets it at its end.
    expect(eventData(events, 'resume')[0]).toEqual({ message_id: answer.id, content: '' });
    expect(textOf(events)).toBe(answer.content);
    expect(eventData(events, 'done')[0]).toMatchObject({ content: answer.content, finish_reason: 'stop' });
    expect((await t.userRow(u.id)).credits_used).toBe(10);
  });

  it('gives a watcher the text so far, then the rest: nothing lost, nothing twice', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token, { model_name: 'fake-slow' });
    const sender = await openStream(t, u.token, conv.id, `watch me ${SLOW}`);
    await sender.readUntil((names) => names.includes('message'));
    // The sender leaves, as a reload does; two watchers attach at different moments.
    await sender.cancel();
    const first = await watch(t, u.token, conv.id);
    await new Promise((r) => setTimeout(r, 300));
    const second = await watch(t, u.token, conv.id, '?delta_only=true');

    const [a, b] = await Promise.all([first.readUntil(isEnd), second.readUntil(isEnd)]);
    const stored = await storedAnswer(t, u.token, conv.id);
    expect(stored?.status).toBe('complete');
    for (const events of [a, b]) {
      expect(events[0]?.event).toBe('resume');
      expect(eventData(events, 'resume')[0]?.message_id).toBe(stored?.id);
      expect(textOf(events)).toBe(stored?.content);
      expect(eventData(events, 'done')[0]).toMatchObject({ content: stored?.content, finish_reason: 'stop' });
    }
    // The first resumed with some text already written, and got more live.
    expect(eventData(a, 'resume')[0]?.content.length).toBeGreaterThan(0);
    expect(eventData(a, 'message').length).toBeGreaterThan(0);
    expect(eventData(a, 'message').at(-1)?.fullContent).toBe(stored?.content);
    expect(eventData(b, 'message').every((m) => m.fullContent === undefined)).toBe(true);
    expect((await t.userRow(u.id)).credits_used).toBe(10);
  });

  it('answers 204 when nothing is being written', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token);
    const res = await t.get(streamUrl(conv.id), u.token);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
  });

  it('answers 404 for an unknown conversation and for another user’s', async () => {
    const u = await user();
    const other = await user();
    const conv = await createConversation(t, other.token);
    for (const id of [crypto.randomUUID(), conv.id]) {
      const res = await t.get(streamUrl(id), u.token);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, code: 404, error: 'NOT_FOUND' });
    }
    expect((await t.get(streamUrl(conv.id))).status).toBe(401);
  });

  /*
   * Two instances without a shared bus: the writer never hears the watcher, as when it is gone
   * or Redis is away. The watcher then follows the stored answer.
   */
  it('follows the stored text when the writer does not answer, and ends with the answer', async () => {
    const writer = await t.sibling();
    await writer.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const u = await user();
      const conv = await createConversation(t, u.token, { model_name: 'fake-slow' });
      const sender = await openStream(writer, u.token, conv.id, `unheard writer [fake:delay=80]`);
      await sender.readUntil((names) => names.includes('message'));
      await sender.cancel();
      // Passages the answer was given (stored with it when it began): the stored end tells them too.
      const citation = { file_id: crypto.randomUUID(), name: 'memo.pdf', page: 3, snippet: 'The memo says' };
      await t.db
        .updateTable('messages')
        .set({ citations: JSON.stringify([citation]) })
        .where('conversation_id', '=', conv.id)
        .where('role', '=', 'assistant')
        .execute();

      const events = await (await watch(t, u.token, conv.id)).readUntil(isEnd);
      const stored = await storedAnswer(t, u.token, conv.id);
      expect(stored?.status).toBe('complete');
      expect(events[0]?.event).toBe('resume');
      expect(textOf(events)).toBe(stored?.content);
      expect(eventData(events, 'done')[0]).toMatchObject({
        content: stored?.content,
        finish_reason: 'stop',
        citations: [citation],
      });
    } finally {
      writer.app.server.closeAllConnections();
      await writer.app.close();
    }
  });

  it('ends when the writer died and the sweep settled its turn, instead of waiting forever', async () => {
    const writer = await t.sibling();
    await writer.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const u = await user();
      const conv = await createConversation(t, u.token, { model_name: 'fake-hang' });
      const sender = await openStream(writer, u.token, conv.id, 'a writer that dies');
      const [init] = eventData(await sender.readUntil((names) => names.includes('init')), 'init');
      const watcher = await watch(t, u.token, conv.id);
      await watcher.readUntil((names) => names.includes('resume'));

      // As a killed instance leaves it: owned by no one alive, lease run out; then swept.
      await t.db
        .updateTable('messages')
        .set({ owner_id: 'an-instance-that-died', lease_until: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', init?.ai_message_id ?? '')
        .execute();
      expect(await t.answerSweep.sweep()).toBe(1);
      const events = await watcher.readUntil(isEnd);
      expect(eventData(events, 'done')[0]).toMatchObject({ content: '', finish_reason: 'stopped' });
      // Closed before the client leaves: a fetch cut short opens a spare connection that would hold close().
      await writer.app.close();
      await sender.cancel();
    } finally {
      writer.app.server.closeAllConnections();
      await writer.app.close();
    }
  });

  it('still stops on the stop call while a watcher is attached', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token, { model_name: 'fake-slow' });
    const sender = await openStream(t, u.token, conv.id, `stop me while watched ${SLOW}`);
    await sender.readUntil((names) => names.includes('message'));
    await sender.cancel();
    const watcher = await watch(t, u.token, conv.id);
    await watcher.readUntil((names) => names.includes('resume'));

    const stopped = await t.post<{ stopped: number }>(stopUrl(conv.id), undefined, u.token);
    expect(stopped.body.data).toEqual({ stopped: 1 });
    const events = await watcher.readUntil(isEnd);
    const stored = await storedAnswer(t, u.token, conv.id);
    expect(stored?.status).toBe('stopped');
    expect(eventData(events, 'done')[0]).toMatchObject({ finish_reason: 'stopped', content: stored?.content });
    expect(textOf(events)).toBe(stored?.content);
    expect((await fake.waitFor((r) => r.lastUserText.startsWith('stop me while watched'))).outcome).toBe(
      'client-closed',
    );
    expect((await t.userRow(u.id)).credits_used).toBe(10);
  });

  it.each([
    ['deleting the conversation', (id: string) => `/api/chat/conversations/${id}`, 'DELETE'],
    ['clearing the conversation', (id: string) => `/api/chat/conversations/${id}/clear`, 'POST'],
  ] as const)('stops an answer still being written when %s removes it', async (what, url, method) => {
    const u = await user();
    const conv = await createConversation(t, u.token, { model_name: 'fake-slow' });
    const text = `written into ${what} ${SLOW}`;
    const sender = await openStream(t, u.token, conv.id, text);
    await sender.readUntil((names) => names.includes('message'));
    await sender.cancel();

    const res = await t.request(method, url(conv.id), { token: u.token });
    expect(res.status).toBe(200);
    // The upstream call is cut, not left writing into rows that are gone; the text so far was charged once.
    expect((await fake.waitFor((r) => r.lastUserText === text)).outcome).toBe('client-closed');
    expect((await t.userRow(u.id)).credits_used).toBe(10);
    expect(await t.ledgerSum(u.id)).toBe(1000 - 10);
  });

  it('stops the answer a deleted version takes with it', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token, { model_name: 'fake-slow' });
    const text = `a version deleted while written ${SLOW}`;
    const sender = await openStream(t, u.token, conv.id, text);
    const [init] = eventData(await sender.readUntil((names) => names.includes('message')), 'init');
    await sender.cancel();

    const res = await t.request('DELETE', `${messagesUrl(conv.id)}/${init?.ai_message_id}`, { token: u.token });
    expect(res.status).toBe(200);
    expect((await fake.waitFor((r) => r.lastUserText === text)).outcome).toBe('client-closed');
    expect(await t.ledgerSum(u.id)).toBe(1000 - 10);
  });
});

/* Behind a load balancer the page may come back to another instance than the one writing the answer. */
describe.skipIf(!REDIS_URL)('watching an answer written by another instance', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    ({ t: a } = await createChatApp({
      config: { redisUrl: REDIS_URL, redisPrefix: `test-${crypto.randomUUID()}:` },
    }));
    await a.app.listen({ port: 0, host: '127.0.0.1' });
    b = await a.sibling();
    await b.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await expectLedgerConsistent(a);
    b.app.server.closeAllConnections();
    await b.app.close();
    a.app.server.closeAllConnections();
    await a.close();
  });

  it('gives the text so far and then the rest through the other instance', async () => {
    const { session } = await a.signUp();
    const token = session.accessToken;
    const conv = await createConversation(a, token, { model_name: 'fake-slow' });
    const sender = await openStream(a, token, conv.id, `written on a ${SLOW}`);
    await sender.readUntil((names) => names.includes('message'));
    await sender.cancel();

    const events = await (await watch(b, token, conv.id)).readUntil(isEnd);
    const stored = await storedAnswer(b, token, conv.id);
    expect(stored?.status).toBe('complete');
    expect(events[0]?.event).toBe('resume');
    expect(eventData(events, 'message').length).toBeGreaterThan(0);
    expect(textOf(events)).toBe(stored?.content);
    expect(eventData(events, 'done')[0]).toMatchObject({ content: stored?.content, finish_reason: 'stop' });
    expect((await a.userRow(session.user.id)).credits_used).toBe(10);
  });

  it('lets the stop call reach the writer while another instance’s watcher is attached', async () => {
    const { session } = await a.signUp();
    const token = session.accessToken;
    const conv = await createConversation(a, token, { model_name: 'fake-slow' });
    const sender = await openStream(a, token, conv.id, `stop across ${SLOW}`);
    await sender.readUntil((names) => names.includes('message'));
    await sender.cancel();
    const watcher = await watch(b, token, conv.id);
    await watcher.readUntil((names) => names.includes('resume'));

    expect((await b.post<{ stopped: number }>(stopUrl(conv.id), undefined, token)).body.data).toEqual({ stopped: 1 });
    const events = await watcher.readUntil(isEnd);
    const stored = await storedAnswer(b, token, conv.id);
    expect(stored?.status).toBe('stopped');
    expect(textOf(events)).toBe(stored?.content);
    expect(eventData(events, 'done')[0]).toMatchObject({ finish_reason: 'stopped', content: stored?.content });
  });
});
