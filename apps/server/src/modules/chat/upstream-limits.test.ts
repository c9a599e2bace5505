import type { Message } from '@aiplatform/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createChatApp,
  createConversation,
  expectLedgerConsistent,
  expectRefunded,
  sendStreamed,
} from '../../../test/chat-helpers.js';
import type { FakeUpstream } from '../../../test/fake-upstream.js';
import type { TestApp } from '../../../test/test-app.js';

const url = (id: string) => `/api/chat/conversations/${id}/messages`;

describe('upstream time limits', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  beforeAll(async () => {
    // Small limits so that these cases finish quickly.
    ({ t, fake } = await createChatApp({ config: { upstreamFirstByteTimeoutMs: 1000, upstreamTimeoutMs: 2500 } }));
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

  it('times out an upstream that never answers, aborts it, and refunds', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token, { model_name: 'fake-hang' });
    const res = await sendStreamed(t, u.token, conv.id, { content: 'hello?' });
    expect(res.events.at(-1)).toMatchObject({ event: 'error', data: { code: 502, error: 'UPSTREAM_ERROR' } });
    await expectRefunded(t, u, conv.id);
    const seen = await fake.waitFor((r) => r.lastUserText === 'hello?');
    expect(seen.outcome).toBe('client-closed');

    const whole = await t.post(url(conv.id), { content: 'hello again?', stream: false }, u.token);
    expect(whole.status).toBe(502);
    expect((await fake.waitFor((r) => r.lastUserText === 'hello again?')).outcome).toBe('client-closed');
  });

  it('keeps and charges the partial text when the whole answer takes too long', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token, { model_name: 'fake-slow' });
    // 43 chunks, 100 ms apart: well past the 2.5 s limit.
    const res = await sendStreamed(t, u.token, conv.id, { content: 'slowly [fake:delay=100]' });
    expect(res.events.at(-1)).toMatchObject({ event: 'error', data: { code: 502, error: 'UPSTREAM_ERROR' } });
    const answer = (await t.get<Message[]>(url(conv.id), u.token)).body.data[1];
    expect(answer?.status).toBe('error');
    expect(answer?.content.startsWith('Echo: slowly')).toBe(true);
    expect((await t.userRow(u.id)).credits_used).toBe(10);
    expect((await fake.waitFor((r) => r.lastUserText.startsWith('slowly'))).outcome).toBe('client-closed');
  });
});
