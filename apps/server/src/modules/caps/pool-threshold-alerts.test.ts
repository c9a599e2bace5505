import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CapsConfig, NotificationList } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSession, createGroupAsAdmin, createUserAsAdmin, poolTransfer } from '../../../test/admin-helpers.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { resolveAppSecret } from '../../lib/auth/secrets.js';
import type { Mail } from '../../lib/runtime/mailer.js';
import { AlertDeliveriesRepo } from './alert-deliveries.repo.js';
import { ALERT_DELIVERY_DEFAULTS, AlertDeliveryLoop } from './alert-delivery.js';
import { PoolThresholdAlerts } from './pool-threshold-alerts.js';
import { PoolThresholdAlertsRepo } from './pool-threshold-alerts.repo.js';

const poolUrl = (id: number) => `/api/admin/user-groups/${id}/credits-pool`;

/** A webhook receiver that records each call's raw body and signature. */
async function receiver() {
  const calls: { body: string; signature: string | undefined }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      calls.push({ body: Buffer.concat(chunks).toString('utf8'), signature: req.headers['x-signature'] as string });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    calls,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('credit pool threshold alerts', () => {
  let t: TestApp;
  let superToken: string;
  let hook: Awaited<ReturnType<typeof receiver>>;
  let loop: AlertDeliveryLoop;
  let checker: PoolThresholdAlerts;
  const mails: Mail[] = [];
  beforeAll(async () => {
    t = await createTestApp({ config: { alertDeliveryIntervalMs: 0 } });
    superToken = (await t.loginAsAdmin()).accessToken;
    hook = await receiver();
    loop = new AlertDeliveryLoop({
      repo: new AlertDeliveriesRepo(t.db),
      mailer: { send: (m) => Promise.resolve(void mails.push(m)) },
      clock: t.clock,
      log: t.app.log,
      secret: resolveAppSecret(t.config.appSecret, t.config.dataDir),
      options: ALERT_DELIVERY_DEFAULTS,
    });
    checker = new PoolThresholdAlerts({ repo: new PoolThresholdAlertsRepo(t.db), clock: t.clock, log: t.app.log });
  });
  afterAll(async () => {
    await hook.close();
    await t.close();
  });

  async function groupWithAdmin(pool: number) {
    const group = await createGroupAsAdmin(t, superToken);
    // Members first: once the group has a pool, their opening credits would come out of it.
    const { user: admin, token } = await adminSession(t, superToken, { group_id: group.id });
    const member = await createUserAsAdmin(t, superToken, { group_id: group.id });
    expect((await t.put(poolUrl(group.id), { credits_pool: pool }, superToken)).status).toBe(200);
    return { group, admin, token, member };
  }

  const poolAlerts = async (token: string) => {
    const res = await t.get<NotificationList>('/api/notifications', token);
    expect(res.status).toBe(200);
    return res.body.data.items.filter((n) => n.kind === 'pool_alert');
  };

  /*
   * The app checks after each pool change without waiting; the test's own check (the same
   * claim) settles the state before asserting, whichever of the two fires.
   */
  const transfer = async (groupId: number, userId: number, amount: number) => {
    expect((await poolTransfer(t, superToken, groupId, { user_id: userId, amount })).status).toBe(200);
    await checker.check(groupId);
  };

  it('tells the group administrators once per threshold, and again after the pool is topped up', async () => {
    const { group, admin, token, member } = await groupWithAdmin(100);
    const put = await t.put<CapsConfig>(
      `/api/admin/user-groups/${group.id}/caps`,
      {
        caps: [],
        alerts: [
          { percent: 80, channels: ['in_app', 'email', 'webhook'] },
          { percent: 100, channels: ['in_app'] },
        ],
        webhook_url: hook.url,
      },
      superToken,
    );
    expect(put.status).toBe(200);

    await transfer(group.id, member.id, 50);
    expect(await poolAlerts(token)).toHaveLength(0);
    await transfer(group.id, member.id, 30);
    const first = await poolAlerts(token);
    expect(first.map((n) => n.data.percent)).toEqual([80]);
    expect(first[0]?.title).toContain('80');
    expect(first[0]?.body).toContain(group.name);
    // Further falls and repeated checks (several instances) do not repeat it.
    await transfer(group.id, member.id, 10);
    await Promise.all([checker.check(group.id), checker.check(group.id), checker.check(group.id)]);
    expect((await poolAlerts(token)).map((n) => n.data.percent)).toEqual([80]);
    await transfer(group.id, member.id, 10);
    expect((await poolAlerts(token)).map((n) => n.data.percent).sort()).toEqual([100, 80]);

    // Topped up: 100 of 200 given out, under both thresholds; the next fall to 80 % fires again.
    expect((await t.put(poolUrl(group.id), { credits_pool: 200 }, superToken)).status).toBe(200);
    await checker.check(group.id);
    await transfer(group.id, member.id, 60);
    expect((await poolAlerts(token)).filter((n) => n.data.percent === 80)).toHaveLength(2);

    // Mail to the administrator and a signed webhook, once per firing of the 80 % threshold.
    while ((await loop.runOnce()) > 0);
    const poolMails = mails.filter((m) => m.to === admin.email);
    expect(poolMails).toHaveLength(2);
    expect(poolMails[0]?.subject).toContain(group.name);
    const calls = hook.calls.filter((c) => (JSON.parse(c.body) as { group_id: number }).group_id === group.id);
    expect(calls).toHaveLength(2);
    const body = JSON.parse(calls[0]!.body) as Record<string, unknown>;
    expect(body).toMatchObject({ event: 'credit_pool.alert', percent: 80, pool: 100, used: 80, remaining: 20 });
    const expected = crypto.createHmac('sha256', put.body.data.webhook_secret).update(calls[0]!.body).digest('hex');
    expect(calls[0]!.signature).toBe(`sha256=${expected}`);
  });

  it('leaves a group without thresholds, and its members, alone', async () => {
    const { group, token, member } = await groupWithAdmin(100);
    await transfer(group.id, member.id, 100);
    expect(await poolAlerts(token)).toHaveLength(0);
    const memberToken = (await t.tokensFor(member.email, member.password)).accessToken;
    expect(await poolAlerts(memberToken)).toHaveLength(0);
  });
});
