import crypto from 'node:crypto';
import type { Message } from '@aiplatform/contracts';
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

const REDIS_URL = process.env.TEST_REDIS_URL || undefined;
const stopUrl = (id: string) => `/api/chat/conversations/${id}/stop`;

/*
 * Behind a load balancer the stop call may reach another instance than the one streaming
 * the answer: the stop travels through Redis to the holder, and the call answers once the
 * stopped answer is stored.
 */
describe.skipIf(!REDIS_URL)('a stop call reaching another instance', () => {
  let a: TestApp;
  let b: TestApp;
  let fake: FakeUpstream;
  beforeAll(async () => {
    ({ t: a, fake } = await createChatApp({
      config: { redisUrl: REDIS_URL, redisPrefix: `test-${crypto.randomUUID()}:` },
    }));
    await a.app.listen({ port: 0, host: '127.0.0.1' });
    b = await a.sibling();
  });
  afterAll(async () => {
    await expectLedgerConsistent(a);
    await b.app.close();
    await a.close();
  });

  it('stops the answer held by the other instance, keeps and charges its text, and closes the upstream request', async () => {
    const { session } = await a.signUp();
    const conv = await createConversation(a, session.accessToken, { model_name: 'fake-slow' });
    const stream = await openStream(a, session.accessToken, conv.id, 'stop me from b');
    await stream.readUntil((names) => names.includes('message'));

    const stopped = await b.post<{ stopped: number }>(stopUrl(conv.id), undefined, session.accessToken);
    expect(stopped.status).toBe(200);
    expect(stopped.body.data).toEqual({ stopped: 1 });
    // Answered only once the partial answer is stored, as on the holding instance.
    const stored = (await b.get<Message[]>(`/api/chat/conversations/${conv.id}/messages`, session.accessToken)).body
      .data[1];
    expect(stored?.status).toBe('stopped');
    expect(stored?.content.length).toBeGreaterThan(0);

    const done = eventData(await stream.readUntil((names) => names.includes('done')), 'done')[0];
    expect(done).toMatchObject({ finish_reason: 'stopped', content: stored?.content });
    expect((await fake.waitFor((r) => r.lastUserText === 'stop me from b')).outcome).toBe('client-closed');
    expect((await a.userRow(session.user.id)).credits_used).toBe(10);
  });

  it('refunds an answer stopped from the other instance before its first word', async () => {
    const { session } = await a.signUp();
    const conv = await createConversation(a, session.accessToken, { model_name: 'fake-hang' });
    const stream = await openStream(a, session.accessToken, conv.id, 'silent, stopped from b');
    await stream.readUntil((names) => names.includes('init'));
    await fake.waitFor((r) => r.lastUserText === 'silent, stopped from b', { ended: false });

    const stopped = await b.post<{ stopped: number }>(stopUrl(conv.id), undefined, session.accessToken);
    expect(stopped.body.data).toEqual({ stopped: 1 });
    await expectRefunded(a, session.user, conv.id);
    expect(eventData(await stream.readUntil((names) => names.includes('done')), 'done')[0]).toMatchObject({
      content: '',
      finish_reason: 'stopped',
    });
    expect((await fake.waitFor((r) => r.lastUserText === 'silent, stopped from b')).outcome).toBe('client-closed');
  });
});
