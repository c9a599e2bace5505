import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createChatApp,
  createConversation,
  eventData,
  expectLedgerConsistent,
  expectRefunded,
  openStream,
  sendStreamed,
} from '../../../test/chat-helpers.js';
import type { FakeUpstream } from '../../../test/fake-upstream.js';
import type { TestApp } from '../../../test/test-app.js';
import { estimateTokens } from '../../ai/tokens.js';
import { MessagesRepo } from './messages.repo.js';
import { SendService } from './send.service.js';

const messagesUrl = (id: string) => `/api/chat/conversations/${id}/messages`;
const stopUrl = (id: string) => `/api/chat/conversations/${id}/stop`;

describe('POST /chat/conversations/{id}/stop', () => {
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

  it('stops an answer mid-way: the stream ends with done "stopped", the text is kept and charged', async () => {
    const { session } = await t.signUp();
    const conv = await createConversation(t, session.accessToken, { model_name: 'fake-slow' });
    const stream = await openStream(t, session.accessToken, conv.id, 'stop me by call');
    await stream.readUntil((names) => names.includes('message'));

    const stopped = await t.post<{ stopped: number }>(stopUrl(conv.id), undefined, session.accessToken);
    expect(stopped.status).toBe(200);
    expect(stopped.body.data).toEqual({ stopped: 1 });
    // Answered only once the partial answer is stored.
    const stored = (
      await t.get<{ status: string; content: string; tokens: number }[]>(messagesUrl(conv.id), session.accessToken)
    ).body.data[1];
    expect(stored?.status).toBe('stopped');
    expect(stored?.content.length).toBeGreaterThan(0);
    // Its tokens are those of the text kept (and the prompt), not of the whole answer.
    expect(stored?.tokens).toBe(estimateTokens('\nstop me by call\n') + estimateTokens(stored?.content ?? ''));

    const events = await stream.readUntil((names) => names.includes('done'));
    const [done] = eventData(events, 'done');
    expect(done).toMatchObject({ finish_reason: 'stopped', content: stored?.content });
    const seen = await fake.waitFor((r) => r.lastUserText === 'stop me by call');
    expect(seen.outcome).toBe('client-closed');
    expect((await t.userRow(session.user.id)).credits_used).toBe(10);
  });

  it('stops an answer whose stop came right after its credits were reserved, before its stream began', async () => {
    const { session } = await t.signUp();
    const conv = await createConversation(t, session.accessToken, { model_name: 'fake-slow' });
    // The stop call is made after the reservation was written, before the stream begins, and
    // the send goes on only once the stop has been published (it then waits for the answer).
    let published!: () => void;
    const stopPublished = new Promise<void>((resolve) => (published = resolve));
    const countStreaming = Reflect.get<MessagesRepo, 'countStreaming'>(MessagesRepo.prototype, 'countStreaming');
    vi.spyOn(MessagesRepo.prototype, 'countStreaming').mockImplementation(function (this: MessagesRepo, ids) {
      published();
      return countStreaming.call(this, ids);
    });
    const answerStream = Reflect.get<SendService, 'answerStream'>(SendService.prototype, 'answerStream');
    let stopCall: Promise<unknown> | undefined;
    vi.spyOn(SendService.prototype, 'answerStream').mockImplementation(async function (this: SendService, ...args) {
      stopCall = t.post(stopUrl(conv.id), undefined, session.accessToken);
      await stopPublished;
      return answerStream.apply(this, args);
    });

    const res = await sendStreamed(t, session.accessToken, conv.id, { content: 'stopped at once' });
    expect(res.status, res.text).toBe(200);
    expect(eventData(res.events, 'done')).toMatchObject([{ finish_reason: 'stopped' }]);
    expect(await stopCall).toMatchObject({ status: 200, body: { data: { stopped: 1 } } });
    // Refunded when no text had come yet, else kept as stopped (text can arrive during the
    // reservation): never a complete answer, and the upstream call was cut.
    const answers = await t.db
      .selectFrom('messages')
      .select('status')
      .where('conversation_id', '=', conv.id)
      .where('role', '=', 'assistant')
      .execute();
    expect(answers.filter((a) => a.status !== 'stopped')).toEqual([]);
    expect(fake.requests.some((r) => r.lastUserText === 'stopped at once' && r.outcome === 'completed')).toBe(false);
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
