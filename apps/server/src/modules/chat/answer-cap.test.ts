import { QUOTAS, type Message, type NonStreamAnswer } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createChatApp,
  createConversation,
  eventually,
  expectLedgerConsistent,
  ledger,
  openStream,
} from '../../../test/chat-helpers.js';
import type { TestApp } from '../../../test/test-app.js';

const messagesUrl = (id: string) => `/api/chat/conversations/${id}/messages`;
const stopUrl = (id: string) => `/api/chat/conversations/${id}/stop`;
/** Answers that last seconds, long enough to fill the cap while they run. */
const SLOW = '[fake:delay=100]';
const MAX = QUOTAS.answersInProgressPerUser;

describe('answers in progress per user', () => {
  let t: TestApp;
  beforeAll(async () => {
    ({ t } = await createChatApp());
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await expectLedgerConsistent(t);
    t.app.server.closeAllConnections();
    await t.close();
  });

  it('refuses a send beyond the cap (nothing charged, nothing stored) until one answer ends', async () => {
    const { session } = await t.signUp();
    const token = session.accessToken;
    const userId = session.user.id;
    const answered = await createConversation(t, token);
    const turn = await t.post<NonStreamAnswer>(messagesUrl(answered.id), { content: 'hello', stream: false }, token);
    expect(turn.status).toBe(200);

    // Answers started and their clients gone: each goes on server-side.
    const writing = [];
    for (let i = 0; i < MAX; i++) {
      const conv = await createConversation(t, token, { model_name: 'fake-slow' });
      const sender = await openStream(t, token, conv.id, `long answer ${i} ${SLOW}`);
      await sender.readUntil((names) => names.includes('message'));
      await sender.cancel();
      writing.push(conv.id);
    }

    const before = await ledger(t, userId);
    const usedBefore = (await t.userRow(userId)).credits_used;
    const extra = await createConversation(t, token);
    const refused = await t.post(messagesUrl(extra.id), { content: 'one too many', stream: true }, token, 'en-US');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('TOO_MANY_ANSWERS');
    expect(refused.body.message).toBe(
      `You already have ${MAX} answers being written; wait for one to finish or stop one, then send again`,
    );
    const zh = await t.post(messagesUrl(extra.id), { content: 'one too many', stream: false }, token);
    expect(zh.body.message).toBe(`已有 ${MAX} 个回答正在生成，请等待其中一个完成或停止后再发送`);
    // A regenerate is a turn too.
    const regenerate = `${messagesUrl(answered.id)}/${turn.body.data.user_message.id}/regenerate`;
    expect((await t.post(regenerate, { stream: false }, token)).body.error).toBe('TOO_MANY_ANSWERS');
    expect(await ledger(t, userId)).toEqual(before);
    expect((await t.userRow(userId)).credits_used).toBe(usedBefore);
    expect((await t.get<Message[]>(messagesUrl(extra.id), token)).body.data).toEqual([]);

    // Another user is not held back by this one's answers.
    const other = await t.signUp();
    const elsewhere = await createConversation(t, other.session.accessToken);
    const otherSend = await t.post(
      messagesUrl(elsewhere.id),
      { content: 'hi', stream: false },
      other.session.accessToken,
    );
    expect(otherSend.status).toBe(200);

    // One answer ends (stopped): a send is accepted again.
    expect((await t.post(stopUrl(writing[0]!), undefined, token)).status).toBe(200);
    const accepted = await eventually(async () => {
      const res = await t.post(messagesUrl(extra.id), { content: 'room again', stream: false }, token);
      return res.status === 429 ? undefined : res;
    });
    expect(accepted.status).toBe(200);

    for (const id of writing.slice(1)) await t.post(stopUrl(id), undefined, token);
  });
});
