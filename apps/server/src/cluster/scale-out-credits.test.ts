import crypto from 'node:crypto';
import type { NonStreamAnswer } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAsAdmin } from '../../test/admin-helpers.js';
import { addModel, createChatApp, createConversation, expectLedgerConsistent } from '../../test/chat-helpers.js';
import type { FakeUpstream } from '../../test/fake-upstream.js';
import type { TestApp } from '../../test/test-app.js';

const REDIS_URL = process.env.TEST_REDIS_URL || undefined;
const PRICE = 20;
const AFFORDABLE = 12;

/*
 * Behind a load balancer one user's simultaneous sends land on different instances: the
 * balance check and the charge must hold across them (in the database, not in a process),
 * so the user gets exactly what the balance covers and is never overdrawn.
 */
describe.skipIf(!REDIS_URL)('credits across three instances', () => {
  let a: TestApp;
  let b: TestApp;
  let c: TestApp;
  let fake: FakeUpstream;
  beforeAll(async () => {
    ({ t: a, fake } = await createChatApp({
      config: {
        redisUrl: REDIS_URL,
        redisPrefix: `test-${crypto.randomUUID()}:`,
        rateLimitScale: 1000,
        // More sends at once than the cap on answers in progress: credits are what is raced here.
        answersInProgressPerUser: 1000,
      },
    }));
    await addModel(a, fake, { name: 'fake-priced', credits_per_chat: PRICE });
    b = await a.sibling();
    c = await a.sibling();
  });
  afterAll(async () => {
    await expectLedgerConsistent(a);
    await c.app.close();
    await b.app.close();
    await a.close();
  });

  it('lets exactly the affordable sends through when one user sends through every instance at once', async () => {
    const admin = await a.loginAsAdmin();
    const created = await createUserAsAdmin(a, admin.accessToken, { credits_quota: PRICE * AFFORDABLE });
    const token = (await b.tokensFor(created.email, created.password)).accessToken;
    const instances = [a, b, c];
    const conversations = await Promise.all(
      instances.map((t) => createConversation(t, token, { model_name: 'fake-priced' })),
    );

    const results = await Promise.all(
      Array.from({ length: 3 * AFFORDABLE }, (_, i) =>
        instances[i % 3]!.post<NonStreamAnswer>(
          `/api/chat/conversations/${conversations[i % 3]!.id}/messages`,
          { content: `race ${i}`, stream: false },
          token,
        ),
      ),
    );

    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(AFFORDABLE);
    expect(statuses.filter((s) => s === 402)).toHaveLength(2 * AFFORDABLE);
    for (const r of results.filter((x) => x.status === 402)) expect(r.body.error).toBe('INSUFFICIENT_CREDITS');
    const row = await c.userRow(created.id);
    expect(row.credits_quota - row.credits_used).toBe(0);
    expect(await b.ledgerSum(created.id)).toBe(0);
    const consumed = await a.db
      .selectFrom('credit_transactions')
      .select('amount')
      .where('user_id', '=', created.id)
      .where('transaction_type', '=', 'chat_consume')
      .execute();
    expect(consumed).toHaveLength(AFFORDABLE);
  });
});
