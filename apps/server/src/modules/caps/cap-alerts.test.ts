import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CapsConfig, NotificationList } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAsAdmin } from '../../../test/admin-helpers.js';
import { addModel, createChatApp, createConversation } from '../../../test/chat-helpers.js';
import type { TestApp } from '../../../test/test-app.js';
import { resolveAppSecret } from '../../lib/auth/secrets.js';
import type { Mail } from '../../lib/runtime/mailer.js';
import { AlertDeliveriesRepo } from './alert-deliveries.repo.js';
import { ALERT_DELIVERY_DEFAULTS, AlertDeliveryLoop } from './alert-delivery.js';

const send = (id: string) => `/api/chat/conversations/${id}/messages`;

/** A webhook receiver: records each call's raw body and signature, answers the status it is told. */
async function receiver() {
  const calls: { body: string; signature: string | undefined }[] = [];
  let status = 200;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      calls.push({ body: Buffer.concat(chunks).toString('utf8'), signature: req.headers['x-signature'] as string });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    calls,
    answer: (s: number) => (status = s),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('usage cap alerts', () => {
  let t: TestApp;
  let admin: string;
  const mails: Mail[] = [];
  let loop: AlertDeliveryLoop;
  let hook: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    const chat = await createChatApp({ config: { answersInProgressPerUser: 1000, alertDeliveryIntervalMs: 0 } });
    t = chat.t;
    await addModel(t, chat.fake, { name: 'capped', credits_per_chat: 10 });
    admin = (await t.loginAsAdmin()).accessToken;
    hook = await receiver();
    loop = new AlertDeliveryLoop({
      repo: new AlertDeliveriesRepo(t.db),
      mailer: { send: (m) => Promise.resolve(void mails.push(m)) },
      clock: t.clock,
      log: t.app.log,
      secret: resolveAppSecret(t.config.appSecret, t.config.dataDir),
      options: { ...ALERT_DELIVERY_DEFAULTS, firstRetryMs: 1000, maxAttempts: 3 },
    });
  });
  afterAll(async () => {
    await hook.close();
    await t.close();
  });

  async function member() {
    const u = await createUserAsAdmin(t, admin);
    return { id: u.id, email: u.email, token: (await t.tokensFor(u.email, u.password)).accessToken };
  }

  it('fires each threshold once per window under concurrency, in the bell, by mail and to a signed webhook', async () => {
    const u = await member();
    const put = await t.put<CapsConfig>(
      `/api/admin/users/${u.id}/caps`,
      {
        caps: [{ period: 'day', credits: 200 }],
        alerts: [
          { percent: 50, channels: ['in_app', 'email', 'webhook'] },
          { percent: 100, channels: ['in_app'] },
        ],
        webhook_url: hook.url,
      },
      admin,
    );
    const secret = put.body.data.webhook_secret;
    const conv = await createConversation(t, u.token, { model_name: 'capped' });
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => t.post(send(conv.id), { content: `a${i}`, stream: false }, u.token)),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(20);
    const bell = await t.get<NotificationList>('/api/notifications', u.token, 'en-US');
    const percents = bell.body.data.items.map((n) => n.data.percent).sort();
    expect(percents).toEqual([100, 50]);
    expect(bell.body.data.unread).toBe(2);
    expect(bell.body.data.items[0]!.body).toContain('daily cap');

    expect(await loop.runOnce()).toBe(2);
    expect(mails.filter((m) => m.to === u.email)).toHaveLength(1);
    expect(hook.calls).toHaveLength(1);
    const call = hook.calls[0]!;
    const expected = `sha256=${crypto.createHmac('sha256', secret).update(call.body).digest('hex')}`;
    expect(call.signature).toBe(expected);
    expect(JSON.parse(call.body)).toMatchObject({
      event: 'usage_cap.alert',
      percent: 50,
      limit: 200,
      subject_id: u.id,
    });

    const first = bell.body.data.items[0]!;
    const read = await t.post<{ unread: number }>(`/api/notifications/${first.id}/read`, {}, u.token);
    expect(read.body.data.unread).toBe(1);
    const stranger = await member();
    expect((await t.post(`/api/notifications/${first.id}/read`, {}, stranger.token)).status).toBe(404);
  });

  it('retries a failing webhook with growing waits and logs every attempt', async () => {
    hook.calls.length = 0;
    hook.answer(500);
    const u = await member();
    await t.put(
      `/api/admin/users/${u.id}/caps`,
      {
        caps: [{ period: 'day', credits: 10 }],
        alerts: [{ percent: 100, channels: ['webhook'] }],
        webhook_url: hook.url,
      },
      admin,
    );
    const conv = await createConversation(t, u.token, { model_name: 'capped' });
    await t.post(send(conv.id), { content: 'x', stream: false }, u.token);
    expect(await loop.runOnce()).toBe(1);
    expect(await loop.runOnce()).toBe(0); // the next try waits 1 s
    t.clock.advance(1000);
    expect(await loop.runOnce()).toBe(1);
    t.clock.advance(1000);
    expect(await loop.runOnce()).toBe(0); // then 2 s
    hook.answer(204);
    t.clock.advance(1000);
    expect(await loop.runOnce()).toBe(1);
    expect(hook.calls).toHaveLength(3);
    const row = await t.db
      .selectFrom('alert_deliveries')
      .selectAll()
      .where('subject_id', '=', u.id)
      .where('subject_type', '=', 'user')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'delivered', attempts: 3 });
    const attempts = await new AlertDeliveriesRepo(t.db).attempts(row.id);
    expect(attempts.map((a) => a.http_status)).toEqual([500, 500, 204]);
  });
});
