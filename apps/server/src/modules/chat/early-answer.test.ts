import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createChatApp,
  createConversation,
  eventData,
  expectLedgerConsistent,
  sendStreamed,
} from '../../../test/chat-helpers.js';
import { type FakeUpstream, fakeAnswer } from '../../../test/fake-upstream.js';
import type { TestApp } from '../../../test/test-app.js';
import { AppError } from '../../lib/http/errors.js';
import { TurnAccounting } from './turn-accounting.js';

/**
 * A streamed text-only turn asks the upstream for its answer while its credits are
 * reserved, so the upstream's time to first token overlaps the reservation. Nothing of
 * the answer may reach the client, or be stored, before the reservation succeeded.
 */
describe('the answer asked for while the credits are reserved', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  beforeAll(async () => {
    ({ t, fake } = await createChatApp());
  });
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => {
    await expectLedgerConsistent(t);
    await t.close();
  });

  /** Makes the reservation wait until the upstream has been asked (or `waitMs` passed), then run `then`. */
  function reserveAfterUpstreamAsked(
    question: string,
    then: (open: () => Promise<number>) => Promise<number>,
    waitMs = 2000,
  ) {
    const asked: boolean[] = [];
    // The real method, called with the instance the spy was called on.
    const open = Reflect.get<TurnAccounting, 'open'>(TurnAccounting.prototype, 'open');
    vi.spyOn(TurnAccounting.prototype, 'open').mockImplementation(async function (this: TurnAccounting, turn) {
      const seen = await fake
        .waitFor((r) => r.lastUserText === question, { ended: false, timeoutMs: waitMs })
        .then(
          () => true,
          () => false,
        );
      asked.push(seen);
      return then(() => open.call(this, turn));
    });
    return asked;
  }

  it('is requested before the reservation ends, and relays the text held meanwhile in order', async () => {
    const { session } = await t.signUp();
    const conv = await createConversation(t, session.accessToken);
    const asked = reserveAfterUpstreamAsked('early bird', (open) => open());

    const res = await sendStreamed(t, session.accessToken, conv.id, { content: 'early bird' });
    expect(res.status, res.text).toBe(200);
    expect(asked).toEqual([true]);
    // The upstream answered (at least partly) while the reservation waited: all of it arrives, in order.
    const expected = fakeAnswer('early bird');
    expect(
      eventData(res.events, 'message')
        .map((m) => m.delta)
        .join(''),
    ).toBe(expected);
    expect(res.events.map((e) => e.event).indexOf('init')).toBeLessThan(
      res.events.map((e) => e.event).indexOf('message'),
    );
    const [done] = eventData(res.events, 'done');
    expect(done?.content).toBe(expected);
    const stored = await t.db
      .selectFrom('messages')
      .select(['content', 'status'])
      .where('id', '=', done!.messageId)
      .executeTakeFirst();
    expect(stored).toEqual({ content: expected, status: 'complete' });
  });

  it('is aborted when the reservation refuses the turn, which leaves nothing behind', async () => {
    const { session, creds } = await t.signUp();
    // Slow enough that the answer is still coming when the refusal aborts it.
    const conv = await createConversation(t, session.accessToken, { model_name: 'fake-slow' });
    const before = await t.ledgerSum(creds.id);
    const asked = reserveAfterUpstreamAsked('refused late', () => {
      const data = { required: 10, balance: 0 };
      throw new AppError('INSUFFICIENT_CREDITS', data, data);
    });

    const res = await sendStreamed(t, session.accessToken, conv.id, { content: 'refused late' });
    expect(res.status, res.text).toBe(402);
    expect(asked).toEqual([true]);
    const call = await fake.waitFor((r) => r.lastUserText === 'refused late', { timeoutMs: 5000 });
    expect(call.outcome).toBe('client-closed');
    const rows = await t.db.selectFrom('messages').select('id').where('conversation_id', '=', conv.id).execute();
    expect(rows).toEqual([]);
    expect(await t.ledgerSum(creds.id)).toBe(before);
  });

  it('is not requested for a sender whose balance does not cover the turn', async () => {
    const { session } = await t.signUp();
    const conv = await createConversation(t, session.accessToken);
    // More than a new account holds.
    await t.setSetting('credits', { enabled: true, min_credits_for_chat: 5000 });
    // The refusal waits a little, so that an upstream call made early would be seen.
    const asked = reserveAfterUpstreamAsked('cannot pay', (open) => open(), 300);
    try {
      const res = await sendStreamed(t, session.accessToken, conv.id, { content: 'cannot pay' });
      expect(res.status, res.text).toBe(402);
    } finally {
      await t.setSetting('credits', { enabled: true });
    }
    expect(asked).toEqual([false]);
    expect(fake.requests.some((r) => r.lastUserText === 'cannot pay')).toBe(false);
  });
});
