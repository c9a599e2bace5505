import type { CapsConfig, MyCaps, NonStreamAnswer } from '@aiplatform/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGroupAsAdmin, createUserAsAdmin } from '../../../test/admin-helpers.js';
import { addModel, createChatApp, createConversation, expectLedgerConsistent } from '../../../test/chat-helpers.js';
import type { TestApp } from '../../../test/test-app.js';
import { dayIn } from '../stats/stats-calendar.js';
import { resetsAt, windowStart } from './cap-windows.js';

const send = (id: string) => `/api/chat/conversations/${id}/messages`;

describe('usage caps', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    const chat = await createChatApp({ config: { answersInProgressPerUser: 1000 } });
    t = chat.t;
    await addModel(t, chat.fake, { name: 'capped', credits_per_chat: 10 });
    admin = (await t.loginAsAdmin()).accessToken;
  });
  afterEach(async () => {
    await expectLedgerConsistent(t);
  });
  afterAll(async () => {
    await t.close();
  });

  async function member(groupId?: number) {
    const u = await createUserAsAdmin(t, admin, groupId === undefined ? {} : { group_id: groupId });
    const session = await t.tokensFor(u.email, u.password);
    return { id: u.id, token: session.accessToken, email: u.email, password: u.password };
  }

  const turn = (token: string, convId: string, content = 'hello') =>
    t.post<NonStreamAnswer>(send(convId), { content, stream: false }, token);

  it('stores and answers an administrator caps, alerts and webhook, audited', async () => {
    const u = await member();
    const body = {
      caps: [
        { period: 'day', credits: 50 },
        { period: 'month', credits: 900, model_name: 'fake-echo' },
      ],
      alerts: [{ percent: 80, channels: ['in_app', 'email'] }],
      webhook_url: null,
    };
    const put = await t.put<CapsConfig>(`/api/admin/users/${u.id}/caps`, body, admin);
    expect(put.status).toBe(200);
    const got = await t.get<CapsConfig>(`/api/admin/users/${u.id}/caps`, admin);
    expect(got.body.data.caps).toEqual([
      { period: 'day', credits: 50, model_name: null },
      { period: 'month', credits: 900, model_name: 'fake-echo' },
    ]);
    expect(got.body.data.alerts).toEqual(body.alerts);
    expect(got.body.data.webhook_secret).toMatch(/^[0-9a-f]{64}$/);
    const audit = await t.db
      .selectFrom('audit_logs')
      .select(['action'])
      .where('target_id', '=', String(u.id))
      .where('action', '=', 'user.caps.update')
      .execute();
    expect(audit).toHaveLength(1);
  });

  it('refuses bad caps with 400 and a translated message, and a user without the right with 403', async () => {
    const u = await member();
    const bad = await t.put(
      `/api/admin/users/${u.id}/caps`,
      { caps: [{ period: 'year', credits: 5 }] },
      admin,
      'en-US',
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('VALIDATION_FAILED');
    const noUrl = await t.put(
      `/api/admin/users/${u.id}/caps`,
      { caps: [], alerts: [{ percent: 50, channels: ['webhook'] }] },
      admin,
      'en-US',
    );
    expect(noUrl.status).toBe(400);
    const other = await member();
    const denied = await t.put(`/api/admin/users/${u.id}/caps`, { caps: [] }, other.token);
    expect(denied.status).toBe(403);
    expect((await t.get(`/api/admin/user-groups/999999/caps`, admin)).status).toBe(404);
  });

  it('refuses the turn that would pass a daily cap: 429 CAP_REACHED, translated, nothing charged', async () => {
    const u = await member();
    await t.put(`/api/admin/users/${u.id}/caps`, { caps: [{ period: 'day', credits: 25 }] }, admin);
    const conv = await createConversation(t, u.token, { model_name: 'capped' });
    expect((await turn(u.token, conv.id)).status).toBe(200);
    expect((await turn(u.token, conv.id)).status).toBe(200);
    const before = await t.userRow(u.id);
    const refused = await turn(u.token, conv.id);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('CAP_REACHED');
    const now = t.clock.now().toISOString();
    const timeZone =
      (await t.settings.getSettings()).stats.time_zone || Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(refused.body.data).toEqual({
      period: 'day',
      limit: 25,
      used: 20,
      resets_at: resetsAt('day', dayIn(now, timeZone), timeZone),
      source: 'user',
      model_name: null,
    });
    expect((await t.userRow(u.id)).credits_used).toBe(before.credits_used);
    const en = await t.post(send(conv.id), { content: 'x', stream: false }, u.token, 'en-US');
    expect(en.body.message).toContain('daily usage cap is reached: 20 of 25 credits');
    const zh = await t.post(send(conv.id), { content: 'x', stream: false }, u.token, 'zh-CN');
    expect(zh.body.message).toContain('每日用量上限');
  });

  it('lets exactly as many concurrent turns through as the cap allows, across two instances', async () => {
    const group = await createGroupAsAdmin(t, admin);
    const a = await member(group.id);
    const b = await member(group.id);
    // 10 credits a turn: the group's day allows 23 turns (230 of 235), whoever sends them.
    await t.put(`/api/admin/user-groups/${group.id}/caps`, { caps: [{ period: 'day', credits: 235 }] }, admin);
    const other = t.dialect === 'postgres' ? await t.sibling() : t;
    try {
      const convA = await createConversation(t, a.token, { model_name: 'capped' });
      const convB = await createConversation(t, b.token, { model_name: 'capped' });
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          (i % 2 === 0 ? t : other).post(
            send(i % 4 < 2 ? convA.id : convB.id),
            { content: `r${i}`, stream: false },
            i % 4 < 2 ? a.token : b.token,
          ),
        ),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(23);
      expect(statuses.filter((s) => s === 429)).toHaveLength(27);
      const spent = (await t.userRow(a.id)).credits_used + (await t.userRow(b.id)).credits_used;
      expect(spent).toBe(230);
      const caps = await t.get<MyCaps>('/api/auth/caps', a.token);
      expect(caps.body.data.applying).toEqual([expect.objectContaining({ source: 'group', limit: 235, used: 230 })]);
    } finally {
      if (other !== t) await other.app.close();
    }
  });

  it('gives a refunded turn back to the cap counter', async () => {
    const u = await member();
    await t.put(`/api/admin/users/${u.id}/caps`, { caps: [{ period: 'week', credits: 20 }] }, admin);
    const conv = await createConversation(t, u.token, { model_name: 'capped' });
    expect((await turn(u.token, conv.id)).status).toBe(200);
    expect((await turn(u.token, conv.id, 'fail [fake:error]')).status).toBe(502);
    const mine = await t.get<MyCaps>('/api/auth/caps', u.token);
    expect(mine.body.data.applying[0]).toMatchObject({ period: 'week', used: 10, limit: 20 });
    // The refund left room for exactly one more turn.
    expect((await turn(u.token, conv.id)).status).toBe(200);
    expect((await turn(u.token, conv.id)).status).toBe(429);
  });

  it('counts what was spent earlier in the window when a cap is set, and starts afresh in the next window', async () => {
    const u = await member();
    const conv = await createConversation(t, u.token, { model_name: 'capped' });
    expect((await turn(u.token, conv.id)).status).toBe(200);
    await t.put(`/api/admin/users/${u.id}/caps`, { caps: [{ period: 'day', credits: 15 }] }, admin);
    expect((await turn(u.token, conv.id)).status).toBe(429);
    t.clock.advance(24 * 3600 * 1000);
    // Signed in again: the access token has expired meanwhile.
    const token = (await t.tokensFor(u.email, u.password)).accessToken;
    admin = (await t.loginAsAdmin()).accessToken;
    expect((await turn(token, conv.id)).status).toBe(200);
    expect((await turn(token, conv.id)).status).toBe(429);
  });

  it('lets a user set a personal cap only lower than the administrator cap', async () => {
    const u = await member();
    await t.put(`/api/admin/users/${u.id}/caps`, { caps: [{ period: 'day', credits: 100 }] }, admin);
    const higher = await t.put('/api/auth/caps', { caps: [{ period: 'day', credits: 100 }] }, u.token, 'en-US');
    expect(higher.status).toBe(400);
    expect(JSON.stringify(higher.body)).toContain('lower than the administrator');
    const lower = await t.put<MyCaps>('/api/auth/caps', { caps: [{ period: 'day', credits: 10 }] }, u.token);
    expect(lower.status).toBe(200);
    expect(lower.body.data.personal).toEqual([{ period: 'day', credits: 10, model_name: null }]);
    expect(lower.body.data.applying).toEqual([expect.objectContaining({ source: 'personal', limit: 10 })]);
    const conv = await createConversation(t, u.token, { model_name: 'capped' });
    expect((await turn(u.token, conv.id)).status).toBe(200);
    const refused = await turn(u.token, conv.id);
    expect(refused.status).toBe(429);
    expect(refused.body.data).toMatchObject({ source: 'personal', limit: 10 });
  });

  it('starts weeks on Monday and months on the first, in the statistics zone', () => {
    expect(windowStart('week', '2026-11-29')).toBe('2026-11-23');
    expect(windowStart('week', '2026-11-23')).toBe('2026-11-23');
    expect(windowStart('month', '2026-11-29')).toBe('2026-11-01');
    expect(resetsAt('day', '2026-11-29', 'Asia/Shanghai')).toBe('2026-11-29T16:00:00.000Z');
    expect(resetsAt('month', '2026-12-15', 'UTC')).toBe('2027-01-01T00:00:00.000Z');
  });
});
