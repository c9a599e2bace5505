import type { Message, NonStreamAnswer } from '@aiplatform/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createChatApp,
  createConversation,
  eventData,
  eventually,
  expectLedgerConsistent,
  ledger,
  openStream,
} from '../../../test/chat-helpers.js';
import type { FakeUpstream } from '../../../test/fake-upstream.js';
import type { ErrorData, TestApp } from '../../../test/test-app.js';
import { estimateTokens } from '../../ai/tokens.js';
import { TurnAccounting } from './turn-accounting.js';

const messagesUrl = (id: string) => `/api/chat/conversations/${id}/messages`;
/** About 45 chunks 50 ms apart: a little over two seconds of answer. */
const SLOW = '[fake:delay=50]';
/** The text another instance stored for the answer before this one could. */
const STORED_ELSEWHERE = 'Echo: cut short elsewhere';

/** A lost connection, as node-postgres reports it. */
const databaseGone = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
const diskFull = () => Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });

/**
 * The client is told what was stored: `done` only once the answer it saw is stored, else an
 * error naming why, in stream and non-stream mode alike.
 */
describe('an answer that could not be stored as it was produced', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  beforeAll(async () => {
    ({ t, fake } = await createChatApp());
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => {
    await expectLedgerConsistent(t);
    t.app.server.closeAllConnections();
    await t.close();
  });

  async function user() {
    const { session } = await t.signUp();
    return { id: session.user.id, token: session.accessToken };
  }
  const streamingAnswer = (conversationId: string) =>
    eventually(async () =>
      t.db
        .selectFrom('messages')
        .select('id')
        .where('conversation_id', '=', conversationId)
        .where('role', '=', 'assistant')
        .where('status', '=', 'streaming')
        .executeTakeFirst(),
    );

  /**
   * As when this instance lost its lease (the database away longer than the lease) and
   * another instance's sweep settled the turn with the text written so far.
   */
  async function settledElsewhere(answerId: string) {
    await t.db
      .updateTable('messages')
      .set({
        owner_id: 'an-instance-that-lost-its-lease',
        lease_until: new Date(t.clock.now().getTime() - 1000).toISOString(),
        content: STORED_ELSEWHERE,
      })
      .where('id', '=', answerId)
      .execute();
    expect(await t.answerSweep.sweep()).toBe(1);
  }

  async function expectStoredElsewhere(u: { id: number; token: string }, conversationId: string) {
    const stored = (await t.get<Message[]>(messagesUrl(conversationId), u.token)).body.data[1];
    expect(stored).toMatchObject({
      status: 'error',
      content: STORED_ELSEWHERE,
      tokens: estimateTokens(STORED_ELSEWHERE),
    });
    // Charged once, by the instance that settled it.
    expect((await ledger(t, u.id)).map((r) => r.transaction_type)).toEqual(['system_reward', 'chat_consume']);
  }

  it('a stream settled by another instance ends with ANSWER_ENDED_ELSEWHERE, not done', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token, { model_name: 'fake-slow' });
    const stream = await openStream(t, u.token, conv.id, `taken over ${SLOW}`);
    const [init] = eventData(await stream.readUntil((names) => names.includes('message')), 'init');
    await settledElsewhere(init?.ai_message_id ?? '');

    const events = await stream.readUntil((names) => names.includes('done') || names.includes('error'));
    expect(eventData(events, 'done')).toEqual([]);
    expect(eventData(events, 'error')).toEqual([
      {
        code: 409,
        error: 'ANSWER_ENDED_ELSEWHERE',
        message: '该回答在此处保存之前已被其他服务结束；对话中显示的是已保存的内容',
      },
    ]);
    await expectStoredElsewhere(u, conv.id);
  });

  it('a non-streamed answer settled by another instance answers 409 ANSWER_ENDED_ELSEWHERE', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token, { model_name: 'fake-echo' });
    const text = `taken over whole [fake:delay=40]`;
    const pending = t.post<NonStreamAnswer & ErrorData>(
      messagesUrl(conv.id),
      { content: text, stream: false },
      u.token,
      'en-US',
    );
    await fake.waitFor((r) => r.lastUserText === text, { ended: false });
    await settledElsewhere((await streamingAnswer(conv.id)).id);

    const res = await pending;
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ANSWER_ENDED_ELSEWHERE');
    expect(res.body.message).toBe(
      'This answer was finished elsewhere before it could be saved here; the conversation now shows the text that was kept',
    );
    await expectStoredElsewhere(u, conv.id);
  });

  it('a stream whose answer cannot be stored because the database is away ends with 503 SERVICE_UNAVAILABLE', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token, { model_name: 'fake-echo' });
    vi.spyOn(TurnAccounting.prototype, 'settle').mockRejectedValue(databaseGone());
    const stream = await openStream(t, u.token, conv.id, 'stored nowhere');
    const events = await stream.readUntil((names) => names.includes('done') || names.includes('error'));
    expect(eventData(events, 'done')).toEqual([]);
    expect(eventData(events, 'error')).toEqual([
      { code: 503, error: 'SERVICE_UNAVAILABLE', message: '服务暂时不可用，请稍后再试' },
    ]);
    vi.restoreAllMocks();
    // Still streaming until its lease runs out; then the sweep keeps the text written so far.
    const answer = await streamingAnswer(conv.id);
    await t.db
      .updateTable('messages')
      .set({ lease_until: new Date(t.clock.now().getTime() - 1000).toISOString() })
      .where('id', '=', answer.id)
      .execute();
    expect(await t.answerSweep.sweep()).toBe(1);
  });

  it('a stream whose answer cannot be stored because the disk is full ends with 503 SERVICE_UNAVAILABLE', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token, { model_name: 'fake-echo' });
    vi.spyOn(TurnAccounting.prototype, 'settle').mockRejectedValue(diskFull());
    const stream = await openStream(t, u.token, conv.id, 'no room left');
    const events = await stream.readUntil((names) => names.includes('done') || names.includes('error'));
    expect(eventData(events, 'done')).toEqual([]);
    expect(eventData(events, 'error')).toMatchObject([{ code: 503, error: 'SERVICE_UNAVAILABLE' }]);
    vi.restoreAllMocks();
  });

  it('a non-streamed answer that cannot be stored answers 503 SERVICE_UNAVAILABLE', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token, { model_name: 'fake-echo' });
    vi.spyOn(TurnAccounting.prototype, 'settle').mockRejectedValue(databaseGone());
    const res = await t.post<ErrorData>(messagesUrl(conv.id), { content: 'whole, nowhere', stream: false }, u.token);
    expect(res.status).toBe(503);
    expect(res.body.error).toBe('SERVICE_UNAVAILABLE');
    vi.restoreAllMocks();
    const answer = await streamingAnswer(conv.id);
    await t.db
      .updateTable('messages')
      .set({ lease_until: new Date(t.clock.now().getTime() - 1000).toISOString() })
      .where('id', '=', answer.id)
      .execute();
    expect(await t.answerSweep.sweep()).toBe(1);
  });
});
