import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createChatApp,
  createConversation,
  eventData,
  expectLedgerConsistent,
  ledger,
  openStream,
} from '../../../test/chat-helpers.js';
import type { FakeUpstream } from '../../../test/fake-upstream.js';
import type { TestApp } from '../../../test/test-app.js';
import { AnswerStops } from './answer-stops.js';

const conversationUrl = (id: string) => `/api/chat/conversations/${id}`;

/**
 * Deleting what an answer is written into stops the answer first; a turn that produced
 * nothing is refunded exactly once, even when its instance does not stop it in time.
 */
describe('deleting a conversation while its answer hangs', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  beforeAll(async () => {
    ({ t, fake } = await createChatApp());
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await expectLedgerConsistent(t);
  });
  afterAll(async () => {
    t.app.server.closeAllConnections();
    await t.close();
  });

  async function user() {
    const { session } = await t.signUp();
    return { id: session.user.id, token: session.accessToken };
  }
  /** The ledger as (type, amount) pairs, and the balance it must add up to. */
  async function expectRefundedOnce(u: { id: number }) {
    expect((await ledger(t, u.id)).map((r) => [r.transaction_type, r.amount])).toEqual([
      ['system_reward', 1000],
      ['chat_consume', -10],
      ['system_refund', 10],
    ]);
    const row = await t.userRow(u.id);
    expect(row.credits_quota - row.credits_used).toBe(1000);
    expect(await t.ledgerSum(u.id)).toBe(1000);
  }
  /** A streamed send to the hanging model, left by its client once the turn began. */
  async function hangingAnswer(app: TestApp, token: string, conversationId: string, text: string) {
    const stream = await openStream(app, token, conversationId, text);
    const [init] = eventData(await stream.readUntil((names) => names.includes('init')), 'init');
    await fake.waitFor((r) => r.lastUserText === text, { ended: false });
    await stream.cancel();
    return init?.ai_message_id ?? '';
  }

  it('refunds the turn its answer was stopped in, once', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token, { model_name: 'fake-hang' });
    await hangingAnswer(t, u.token, conv.id, 'hangs, then deleted');
    expect((await t.request('DELETE', conversationUrl(conv.id), { token: u.token })).status).toBe(200);
    expect((await fake.waitFor((r) => r.lastUserText === 'hangs, then deleted')).outcome).toBe('client-closed');
    await expectRefundedOnce(u);
  });

  it('refunds it when the instance writing the answer does not stop it, and that instance’s own refund later changes nothing', async () => {
    const u = await user();
    // The instance writing the answer never hears the stop (stuck, or cut off from the others).
    vi.spyOn(AnswerStops.prototype, 'listen').mockReturnValue(() => undefined);
    const holder = await t.sibling();
    await holder.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const conv = await createConversation(t, u.token, { model_name: 'fake-hang' });
      await hangingAnswer(holder, u.token, conv.id, 'hangs on a stuck instance');
      expect((await t.request('DELETE', conversationUrl(conv.id), { token: u.token })).status).toBe(200);
      await expectRefundedOnce(u);
    } finally {
      // Stopping that instance ends the answer at last: its refund finds the turn settled.
      holder.app.server.closeAllConnections();
      await holder.app.close();
    }
    expect((await fake.waitFor((r) => r.lastUserText === 'hangs on a stuck instance')).outcome).toBe('client-closed');
    await expectRefundedOnce(u);
  });

  it('refunds a turn whose instance died before the sweep came, when its version is deleted', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token, { model_name: 'fake-hang' });
    const answerId = await hangingAnswer(t, u.token, conv.id, 'its instance died');
    // As a killed instance leaves it: still streaming, no text, the lease run out.
    await t.db
      .updateTable('messages')
      .set({ owner_id: 'an-instance-that-died', lease_until: new Date(t.clock.now().getTime() - 1000).toISOString() })
      .where('id', '=', answerId)
      .execute();
    const res = await t.request('DELETE', `${conversationUrl(conv.id)}/messages/${answerId}`, { token: u.token });
    expect(res.status, res.text).toBe(200);
    await expectRefundedOnce(u);
    const left = await t.db
      .selectFrom('conversations')
      .select('message_count')
      .where('id', '=', conv.id)
      .executeTakeFirstOrThrow();
    expect(left.message_count).toBe(0);
    expect(await t.answerSweep.sweep()).toBe(0);
  });

  it('keeps the charge of a turn with text stored, as for any deletion', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token, { model_name: 'fake-hang' });
    const answerId = await hangingAnswer(t, u.token, conv.id, 'said something first');
    await t.db
      .updateTable('messages')
      .set({
        owner_id: 'an-instance-that-died',
        lease_until: new Date(t.clock.now().getTime() - 1000).toISOString(),
        content: 'Partly',
      })
      .where('id', '=', answerId)
      .execute();
    const res = await t.post(`${conversationUrl(conv.id)}/clear`, {}, u.token);
    expect(res.status, res.text).toBe(200);
    expect((await ledger(t, u.id)).map((r) => r.transaction_type)).toEqual(['system_reward', 'chat_consume']);
  });
});
