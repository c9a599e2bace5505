import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSession, createGroupAsAdmin, createUserAsAdmin, poolTransfer } from '../../../test/admin-helpers.js';
import { type TestApp, createTestApp, unique } from '../../../test/test-app.js';

const poolUrl = (id: number) => `/api/admin/user-groups/${id}/credits-pool`;

describe('low-pool alerts', () => {
  let t: TestApp;
  let superToken: string;
  beforeAll(async () => {
    t = await createTestApp();
    superToken = (await t.loginAsAdmin()).accessToken;
    const res = await t.put('/api/admin/settings', { stats: { pool_alert_percent: 40 } }, superToken);
    expect(res.status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
  });

  async function groupWithAdmin(pool: number) {
    const group = await createGroupAsAdmin(t, superToken);
    // Members first: once the group has a pool, their opening credits would come out of it.
    const { user: admin } = await adminSession(t, superToken, { group_id: group.id });
    const member = await createUserAsAdmin(t, superToken, { group_id: group.id });
    expect((await t.put(poolUrl(group.id), { credits_pool: pool }, superToken)).status).toBe(200);
    return { group, admin, member };
  }

  const alertsTo = (email: string) =>
    t.mail.mailsTo(email).filter((m) => m.subject.includes('Credits pool running low'));

  it('emails the group administrators once when the pool falls below the share, again after it recovers', async () => {
    const { group, admin, member } = await groupWithAdmin(100);
    // 100 → 70 left: above 40 %, no mail.
    expect((await poolTransfer(t, superToken, group.id, { user_id: member.id, amount: 30 })).status).toBe(200);
    // 70 → 30 left: below 40 %.
    expect((await poolTransfer(t, superToken, group.id, { user_id: member.id, amount: 40 })).status).toBe(200);
    const mail = await t.mail.nextMailTo(admin.email);
    expect(mail.subject).toContain(group.name);
    expect(mail.text).toContain('30');
    // Still low: no second mail for a further fall.
    expect((await poolTransfer(t, superToken, group.id, { user_id: member.id, amount: 10 })).status).toBe(200);
    // Enlarging the pool re-arms the alert (200 total, 80 used: 60 % left) …
    expect((await t.put(poolUrl(group.id), { credits_pool: 200 }, superToken)).status).toBe(200);
    await expect
      .poll(
        async () =>
          (
            await t.db
              .selectFrom('user_groups')
              .select('pool_alert_sent_at')
              .where('id', '=', group.id)
              .executeTakeFirstOrThrow()
          ).pool_alert_sent_at,
      )
      .toBeNull();
    expect(alertsTo(admin.email)).toHaveLength(1);
    // … and the next fall below 40 % (200 − 130 = 70 left, 35 %) warns again.
    expect((await poolTransfer(t, superToken, group.id, { user_id: member.id, amount: 50 })).status).toBe(200);
    await expect.poll(() => alertsTo(admin.email).length).toBe(2);
  });

  it('warns when the opening credits of new accounts draw the pool below the share', async () => {
    const group = await createGroupAsAdmin(t, superToken);
    const { user: admin, token } = await adminSession(t, superToken, { group_id: group.id });
    expect((await t.put(poolUrl(group.id), { credits_pool: 1500 }, superToken)).status).toBe(200);
    // 1,000 opening credits out of 1,500: 500 left, 33 %.
    const member = { username: `pa_${unique()}`, email: `pa_${unique()}@example.com`, password: 'secret123' };
    expect((await t.post('/api/admin/users', member, token)).status).toBe(201);
    const mail = await t.mail.nextMailTo(admin.email);
    expect(mail.subject).toContain(group.name);
    expect(mail.text).toContain('500');
  });

  it('stays silent while the share is off (0)', async () => {
    const { group, admin, member } = await groupWithAdmin(100);
    expect((await t.put('/api/admin/settings', { stats: { pool_alert_percent: 0 } }, superToken)).status).toBe(200);
    try {
      expect((await poolTransfer(t, superToken, group.id, { user_id: member.id, amount: 95 })).status).toBe(200);
      // Give a stray mail the time to arrive before asserting none did.
      await new Promise((r) => setTimeout(r, 300));
      expect(alertsTo(admin.email)).toHaveLength(0);
    } finally {
      await t.put('/api/admin/settings', { stats: { pool_alert_percent: 40 } }, superToken);
    }
  });
});
