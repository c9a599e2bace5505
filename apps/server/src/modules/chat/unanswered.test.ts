import type { Conversation, Message } from '@aiplatform/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  addModel,
  createChatApp,
  createConversation,
  expectLedgerConsistent,
  sendStreamed,
} from '../../../test/chat-helpers.js';
import type { FakeUpstream } from '../../../test/fake-upstream.js';
import type { TestApp } from '../../../test/test-app.js';

const base = (id: string) => `/api/chat/conversations/${id}`;

/** A question whose answer never came stays in the conversation, refunded and out of the model's context. */
describe('unanswered questions', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  beforeAll(async () => {
    ({ t, fake } = await createChatApp());
    // A model without a fixed fake mode, so a `[fake:error]` directive in the text decides.
    await addModel(t, fake, { name: 'plain-model' });
  });
  afterEach(async () => {
    await expectLedgerConsistent(t);
  });
  afterAll(async () => {
    await t.close();
  });

  async function conversationWithUnanswered() {
    const { session } = await t.signUp();
    const token = session.accessToken;
    const conv = await createConversation(t, token, { model_name: 'plain-model' });
    await sendStreamed(t, token, conv.id, { content: 'lost question [fake:error]' });
    const messages = (await t.get<Message[]>(`${base(conv.id)}/messages`, token)).body.data;
    return { token, conv, messages };
  }

  it('keeps the question after a reload, marked unanswered, with its title and a count of one', async () => {
    const { token, conv, messages } = await conversationWithUnanswered();
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ role: 'user', status: 'unanswered', content: 'lost question [fake:error]' });
    const detail = (await t.get<Conversation>(base(conv.id), token)).body.data;
    expect(detail).toMatchObject({ message_count: 1, title: 'lost question [fake:error]' });
  });

  it('keeps why the turn failed and the model it was sent to, as the live error said', async () => {
    const { session } = await t.signUp();
    const token = session.accessToken;
    const conv = await createConversation(t, token, { model_name: 'plain-model' });
    const live = await sendStreamed(t, token, conv.id, { content: 'fails [fake:error]' });
    const error = live.events.find((e) => e.event === 'error')?.data as { error: string };
    expect(error.error).toBe('UPSTREAM_ERROR');
    const [question] = (await t.get<Message[]>(`${base(conv.id)}/messages`, token)).body.data;
    expect(question).toMatchObject({ status: 'unanswered', error_code: 'UPSTREAM_ERROR', model_name: 'plain-model' });

    // Answered turns carry no code.
    const ok = await t.post(`${base(conv.id)}/messages`, { content: 'fine', stream: false }, token);
    expect(ok.status).toBe(200);
    const after = (await t.get<Message[]>(`${base(conv.id)}/messages`, token)).body.data;
    expect(after.slice(1).map((m) => m.error_code)).toEqual([null, null]);
  });

  it('leaves the unanswered question out of the next turn’s context', async () => {
    const { token, conv } = await conversationWithUnanswered();
    fake.requests.length = 0;
    await sendStreamed(t, token, conv.id, { content: 'next question' });
    const seen = await fake.waitFor((r) => r.lastUserText === 'next question');
    const texts = seen.messages.map((m) => JSON.stringify(m.content));
    expect(texts.some((c) => c.includes('lost question'))).toBe(false);
    expect(texts.some((c) => c.includes('next question'))).toBe(true);
    const after = (await t.get<Message[]>(`${base(conv.id)}/messages`, token)).body.data;
    expect(after.map((m) => [m.role, m.status])).toEqual([
      ['user', 'unanswered'],
      ['user', 'complete'],
      ['assistant', 'complete'],
    ]);
  });

  it('deletes an unanswered question on its own; an answered question still cannot be deleted alone', async () => {
    const { token, conv, messages } = await conversationWithUnanswered();
    await sendStreamed(t, token, conv.id, { content: 'answered' });
    const answered = (await t.get<Message[]>(`${base(conv.id)}/messages`, token)).body.data[1];

    const alone = await t.request('DELETE', `${base(conv.id)}/messages/${answered?.id}`, { token });
    expect(alone.status).toBe(404);

    const res = await t.request<{ deletedUserMessageId: string; deletedAiMessageId: string }>(
      'DELETE',
      `${base(conv.id)}/messages/${messages[0]?.id}`,
      { token },
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ deletedUserMessageId: messages[0]?.id, deletedAiMessageId: '' });
    const left = (await t.get<Message[]>(`${base(conv.id)}/messages`, token)).body.data;
    expect(left.map((m) => [m.role, m.content.slice(0, 8)])).toEqual([
      ['user', 'answered'],
      ['assistant', 'Echo: an'],
    ]);
    expect((await t.get<Conversation>(base(conv.id), token)).body.data.message_count).toBe(2);
  });
});
