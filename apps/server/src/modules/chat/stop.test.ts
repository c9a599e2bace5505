import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createChatApp,
  createConversation,
  eventData,
  expectLedgerConsistent,
  expectRefunded,
  openStream,
} from '../../../test/chat-helpers.js';
import type { FakeUpstream } from '../../../test/fake-upstream.js';
import type { TestApp } from '../../../test/test-app.js';

const messagesUrl = (id: string) => `/api/chat/conversations/${id}/messages`;
const stopUrl = (id: string) => `/api/chat/conversations/${id}/stop`;

describe('POST /chat/conversations/{id}/stop', () => {
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

  it('stops an answer mid-way: the stream ends with done "stopped", the text is kept and charged', async () => {
    const { session } = await t.signUp();
    const conv = await createConversation(t, session.accessToken, { model_name: 'fake-slow' });
    const stream = await openStream(t, session.accessToken, conv.id, 'stop me by call');
    await stream.readUntil((names) => names.includes('message'));

    const stopped = await t.post<{ stopped: number }>(stopUrl(conv.id), undefined, session.accessToken);
    expect(stopped.status).toBe(200);
    expect(stopped.body.data).toEqual({ stopped: 1 });
    // Answered only once the partial answer is stored.
    const stored = (await t.get<{ status: string; content: string }[]>(messagesUrl(conv.id), session.accessToken)).body
      .data[1];
    expect(stored?.status).toBe('stopped');
    expect(stored?.content.length).toBeGreaterThan(0);

    const events = await stream.readUntil((names) => names.includes('done'));
    const [done] = eventData(events, 'done');
    expect(done).toMatchObject({ finish_reason: 'stopped', content: stored?.content });
    const seen = await fake.waitFor((r) => r.lastUserText === 'stop me by call');
    expect(seen.outcome).toBe('client-closed');
    expect((await t.userRow(session.user.id)).credits_used).toBe(10);
  });

  it('stops an answer before its first word: refunded, and the stream says stopped rather than hanging', async () => {
    const { session } = await t.signUp();
    const conv = await createConversation(t, session.accessToken, { model_name: 'fake-hang' });
    const stream = await openStream(t, session.accessToken, conv.id, 'never answered');
    await stream.readUntil((names) => names.includes('init'));
    await fake.waitFor((r) => r.lastUserText === 'never answered', { ended: false });

    const stopped = await t.post<{ stopped: number }>(stopUrl(conv.id), undefined, session.accessToken);
    expect(stopped.body.data).toEqual({ stopped: 1 });
    const events = await stream.readUntil((names) => names.includes('done'));
    expect(eventData(events, 'done')[0]).toMatchObject({ content: '', finish_reason: 'stopped' });
    expect((await fake.waitFor((r) => r.lastUserText === 'never answered')).outcome).toBe('client-closed');
    await expectRefunded(t, session.user, conv.id);
  });

  it('with nothing running stops nothing; another user’s conversation is not found', async () => {
    const owner = (await t.signUp()).session;
    const stranger = (await t.signUp()).session;
    const conv = await createConversation(t, owner.accessToken);
    const idle = await t.post<{ stopped: number }>(stopUrl(conv.id), undefined, owner.accessToken);
    expect(idle.status).toBe(200);
    expect(idle.body.data).toEqual({ stopped: 0 });
    const foreign = await t.post(stopUrl(conv.id), undefined, stranger.accessToken);
    expect(foreign.status).toBe(404);
    expect((await t.post(stopUrl(conv.id), undefined)).status).toBe(401);
  });
});
