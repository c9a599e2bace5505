import type { Message } from '@aiplatform/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createChatApp,
  createConversation,
  eventData,
  eventually,
  expectLedgerConsistent,
  expectRefunded,
  ledger,
  openStream,
} from '../../../test/chat-helpers.js';
import type { FakeUpstream } from '../../../test/fake-upstream.js';
import type { TestApp } from '../../../test/test-app.js';
import { estimateTokens } from '../../ai/tokens.js';

const messagesUrl = (id: string) => `/api/chat/conversations/${id}/messages`;

/**
 * A streaming answer is written to the database as it grows and names the instance
 * producing it under a lease; when that instance is gone, any instance settles the turn.
 */
describe('answers that outlive their instance', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  beforeAll(async () => {
    ({ t, fake } = await createChatApp());
  });
  afterEach(async () => {
    await expectLedgerConsistent(t);
  });
  afterAll(async () => {
    await t.close();
  });

  /** A second instance on the same database, serving HTTP, to hold a stream. */
  async function ownerInstance() {
    const owner = await t.sibling();
    await owner.app.listen({ port: 0, host: '127.0.0.1' });
    return owner;
  }

  /**
   * Another instance sweeping at the same time. SQLite serves one instance only (two processes
   * would refuse each other's write transactions), so there the second round is the same instance's.
   */
  const sweeper = (other: TestApp) => (t.dialect === 'postgres' ? other.answerSweep : t.answerSweep);

  const answerRow = (id: string) =>
    t.db
      .selectFrom('messages')
      .select(['status', 'content', 'tokens', 'owner_id', 'lease_until'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  /** As an instance killed mid-answer leaves its turn: still streaming, owned by no one alive, lease run out. */
  async function abandon(answerId: string, content: string) {
    await t.db
      .updateTable('messages')
      .set({
        owner_id: 'an-instance-that-died',
        lease_until: new Date(t.clock.now().getTime() - 1000).toISOString(),
        content,
      })
      .where('id', '=', answerId)
      .execute();
  }

  it('writes the text so far while the answer streams', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { session } = await t.signUp();
    const conv = await createConversation(t, session.accessToken, { model_name: 'fake-slow' });
    const stream = await openStream(t, session.accessToken, conv.id, 'a long one [fake:delay=50] [fake:repeat=3]');
    const [init] = eventData(await stream.readUntil((names) => names.includes('init')), 'init');
    const answerId = init?.ai_message_id ?? '';

    const partial = await eventually(async () => {
      const row = await answerRow(answerId);
      return row.content ? row : undefined;
    });
    // Still streaming: the text came from the running answer, not from its end.
    expect(partial.status).toBe('streaming');
    expect(partial.lease_until! > t.clock.now().toISOString()).toBe(true);
    expect((await fake.waitFor((r) => r.lastUserText.startsWith('a long one'), { ended: false })).outcome).toBe(
      'pending',
    );

    await t.post(`/api/chat/conversations/${conv.id}/stop`, undefined, session.accessToken);
    const events = await stream.readUntil((names) => names.includes('done'));
    const final = eventData(events, 'done')[0]?.content ?? '';
    expect(final.startsWith(partial.content)).toBe(true);
    expect(await answerRow(answerId)).toMatchObject({
      status: 'stopped',
      content: final,
      owner_id: null,
      lease_until: null,
    });
  });

  it('keeps and charges the stored text of a turn whose instance died, once, though two instances sweep at once and the owner settles late', async () => {
    const owner = await ownerInstance();
    const { session } = await t.signUp();
    const conv = await createConversation(t, session.accessToken, { model_name: 'fake-slow' });
    const stream = await openStream(owner, session.accessToken, conv.id, 'cut short [fake:delay=50] [fake:repeat=3]');
    const events = await stream.readUntil((names) => names.includes('message'));
    const [init] = eventData(events, 'init');
    const answerId = init?.ai_message_id ?? '';
    await abandon(answerId, 'Echo: cut');

    const settled = await Promise.all([t.answerSweep.sweep(), sweeper(owner).sweep()]);
    expect(settled[0] + settled[1]).toBe(1);
    const kept = { status: 'error', content: 'Echo: cut', tokens: estimateTokens('Echo: cut') };
    expect(await answerRow(answerId)).toMatchObject({ ...kept, owner_id: null, lease_until: null });

    // The owner comes back and finishes: the turn was settled, nothing changes.
    await owner.app.close();
    await stream.cancel();
    expect(await answerRow(answerId)).toMatchObject(kept);
    const messages = (await t.get<Message[]>(messagesUrl(conv.id), session.accessToken)).body.data;
    expect(messages.map((m) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'error'],
    ]);
    expect((await ledger(t, session.user.id)).map((r) => [r.transaction_type, r.amount])).toEqual([
      ['system_reward', 1000],
      ['chat_consume', -10],
    ]);
    expect((await t.userRow(session.user.id)).credits_used).toBe(10);
    expect(await t.answerSweep.sweep()).toBe(0);
  });

  it('refunds exactly once a turn whose instance died before any text, and keeps the question', async () => {
    const owner = await ownerInstance();
    const { session } = await t.signUp();
    const conv = await createConversation(t, session.accessToken, { model_name: 'fake-hang' });
    const stream = await openStream(owner, session.accessToken, conv.id, 'no word yet');
    const [init] = eventData(await stream.readUntil((names) => names.includes('init')), 'init');
    await abandon(init?.ai_message_id ?? '', '');

    const settled = await Promise.all([t.answerSweep.sweep(), sweeper(owner).sweep()]);
    expect(settled[0] + settled[1]).toBe(1);
    await expectRefunded(t, session.user, conv.id);

    await owner.app.close();
    await stream.cancel();
    expect(await t.answerSweep.sweep()).toBe(0);
    await expectRefunded(t, session.user, conv.id);
  });

  it('leaves alone a turn whose owner still holds its lease', async () => {
    const owner = await ownerInstance();
    const { session } = await t.signUp();
    const conv = await createConversation(t, session.accessToken, { model_name: 'fake-hang' });
    const stream = await openStream(owner, session.accessToken, conv.id, 'still alive');
    const [init] = eventData(await stream.readUntil((names) => names.includes('init')), 'init');

    expect(await t.answerSweep.sweep()).toBe(0);
    expect(await answerRow(init?.ai_message_id ?? '')).toMatchObject({ status: 'streaming' });
    await owner.app.close();
    await stream.cancel();
    await expectRefunded(t, session.user, conv.id);
  });
});
