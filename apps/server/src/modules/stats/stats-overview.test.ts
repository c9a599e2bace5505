import type { Group, UsageOverview } from '@aiplatform/contracts';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSession, createGroupAsAdmin, createUserAsAdmin } from '../../../test/admin-helpers.js';
import { addModel, createChatApp, createConversation, expectLedgerConsistent } from '../../../test/chat-helpers.js';
import { answerTokens, chatTurn, pinToMidday } from '../../../test/stats-helpers.js';
import type { TestApp } from '../../../test/test-app.js';
import { ManualClock } from '../../lib/runtime/clock.js';

const PRICE = 7;
const ECHO_PRICE = 10;

interface Member {
  id: number;
  username: string;
  email: string;
  token: string;
  groupId: number;
}

/*
 * Users of two groups (and of the default group) chat; the super administrator sees all
 * of it or one group, a group administrator only their own group, a plain user nothing.
 */
describe('usage overview and export for administrators', () => {
  let t: TestApp;
  let superToken: string;
  let groupA: Group;
  let groupB: Group;
  let ga: Member;
  let a1: Member;
  let a2: Member;
  let b1: Member;
  let plain: Member;
  let today: string;
  /** What each member's turns added up to: [messages, credits, model, conversations]. */
  const usage = new Map<number, { messages: number; credits: number; tokens: number; model: string; convs: number }>();

  beforeAll(async () => {
    const clock = new ManualClock();
    pinToMidday(clock);
    const chat = await createChatApp({ clock });
    t = chat.t;
    today = t.clock.now().toISOString().slice(0, 10);
    await addModel(t, chat.fake, { name: 'stats-model', credits_per_chat: PRICE });
    superToken = (await t.loginAsAdmin()).accessToken;
    groupA = await createGroupAsAdmin(t, superToken);
    groupB = await createGroupAsAdmin(t, superToken);
    const s = await adminSession(t, superToken, { group_id: groupA.id });
    ga = { ...s.user, token: s.token, groupId: groupA.id };
    const member = async (groupId: number): Promise<Member> => {
      const u = await createUserAsAdmin(t, superToken, { group_id: groupId });
      return { ...u, token: (await t.tokensFor(u.email, u.password)).accessToken, groupId };
    };
    a1 = await member(groupA.id);
    a2 = await member(groupA.id);
    b1 = await member(groupB.id);
    const p = await t.signUp();
    plain = { ...p.creds, token: p.session.accessToken, groupId: 1 };

    const chatAs = async (m: Member, model: string, turns: number[]) => {
      for (const count of turns) {
        const conv = await createConversation(t, m.token, { model_name: model });
        for (let i = 0; i < count; i++) await chatTurn(t, m.token, conv.id, `turn ${i}`);
      }
      const n = turns.reduce((x, y) => x + y, 0);
      const price = model === 'stats-model' ? PRICE : ECHO_PRICE;
      usage.set(m.id, { messages: 2 * n, credits: n * price, tokens: 0, model, convs: turns.length });
    };
    await chatAs(a1, 'stats-model', [2]);
    await chatAs(a2, 'fake-echo', [1]);
    await chatAs(ga, 'stats-model', [1]);
    await chatAs(b1, 'fake-echo', [2, 1]);
    await chatAs(plain, 'stats-model', [1]);
    for (const [id, u] of usage) u.tokens = await answerTokens(t, id);
    await expectLedgerConsistent(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const overview = (token: string, query = '') => t.get<UsageOverview>(`/api/admin/stats/overview${query}`, token);
  const sumOf = (members: Member[]) => {
    const us = members.map((m) => usage.get(m.id)!);
    return {
      messages: us.reduce((s, u) => s + u.messages, 0),
      credits: us.reduce((s, u) => s + u.credits, 0),
      tokens: us.reduce((s, u) => s + u.tokens, 0),
      conversations: us.reduce((s, u) => s + u.convs, 0),
      active_users: members.length,
    };
  };
  const groupRow = (g: { id: number; name: string; color: string } | null, members: Member[]) => {
    const { conversations: _c, ...s } = sumOf(members);
    return { group_id: g?.id ?? null, group_name: g?.name ?? null, group_color: g?.color ?? null, ...s };
  };
  const topRow = (m: Member) => {
    const u = usage.get(m.id)!;
    return { user_id: m.id, username: m.username, messages: u.messages, tokens: u.tokens, credits: u.credits };
  };

  it('super administrator: every group summed, or one group', async () => {
    const everyone = [a1, a2, ga, b1, plain];
    const all = await overview(superToken, '?days=7');
    expect(all.status).toBe(200);
    expect(all.body.data.totals).toEqual(sumOf(everyone));
    expect(all.body.data.days).toHaveLength(7);
    expect(all.body.data.days[6]).toEqual({ date: today, ...sumOf(everyone) });
    const defaultGroup = await t.db.selectFrom('user_groups').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    // Ordered by credits: B 30, A 31 → A first.
    expect(all.body.data.groups).toEqual([
      groupRow(groupA, [a1, a2, ga]),
      groupRow(groupB, [b1]),
      groupRow(defaultGroup, [plain]),
    ]);
    // Ordered by credits, then messages, then user id.
    expect(all.body.data.top_users).toEqual([topRow(b1), topRow(a1), topRow(a2), topRow(ga), topRow(plain)]);
    const byModel = (members: Member[]) => {
      const { conversations: _c, active_users: _a, ...s } = sumOf(members);
      return s;
    };
    expect(all.body.data.models).toEqual([
      { model_name: 'fake-echo', display_name: 'fake-echo', ...byModel([a2, b1]) },
      { model_name: 'stats-model', display_name: 'stats-model', ...byModel([a1, ga, plain]) },
    ]);

    const onlyA = await overview(superToken, `?days=7&group_id=${groupA.id}`);
    expect(onlyA.body.data.totals).toEqual(sumOf([a1, a2, ga]));
    expect(onlyA.body.data.groups).toEqual([groupRow(groupA, [a1, a2, ga])]);
    expect(onlyA.body.data.top_users).toEqual([topRow(a1), topRow(a2), topRow(ga)]);
    const onlyB = await overview(superToken, `?days=7&group_id=${groupB.id}`);
    expect(onlyB.body.data.totals).toEqual(sumOf([b1]));
    expect(onlyB.body.data.top_users).toEqual([topRow(b1)]);
    expect(onlyB.body.data.models.map((m) => m.model_name)).toEqual(['fake-echo']);
    // A group without usage: zeros, not an error.
    const empty = await overview(superToken, '?group_id=999999');
    expect(empty.status).toBe(200);
    expect(empty.body.data.totals).toEqual({ messages: 0, tokens: 0, credits: 0, conversations: 0, active_users: 0 });
  });

  it('group administrator: always their own group; another group answers 404', async () => {
    const own = sumOf([a1, a2, ga]);
    expect((await overview(ga.token, '?group_id=abc')).status).toBe(400);
    for (const q of ['', `?group_id=${groupA.id}`]) {
      const res = await overview(ga.token, q);
      expect(res.status, q).toBe(200);
      expect(res.body.data.totals, q).toEqual(own);
      expect(res.body.data.groups, q).toEqual([groupRow(groupA, [a1, a2, ga])]);
      expect(
        res.body.data.top_users.map((u) => u.user_id),
        q,
      ).toEqual([a1.id, a2.id, ga.id]);
    }
    for (const id of [groupB.id, 1, 999999]) {
      const res = await overview(ga.token, `?group_id=${id}`);
      expect(res.status, `group ${id}`).toBe(404);
      expect(res.body.error).toBe('NOT_FOUND');
      const csv = await t.get(`/api/admin/stats/export.csv?group_id=${id}`, ga.token);
      expect(csv.status, `export of group ${id}`).toBe(404);
    }
  });

  it('a plain user may read neither the overview nor the export (403)', async () => {
    for (const url of [
      '/api/admin/stats/overview',
      '/api/admin/stats/export.csv',
      `/api/admin/stats/overview?group_id=1`,
    ]) {
      const res = await t.get(url, plain.token);
      expect(res.status, url).toBe(403);
      expect(res.body.error).toBe('FORBIDDEN');
    }
    expect((await t.get('/api/admin/stats/overview')).status).toBe(401);
  });

  it('export.csv: one row per day, user and model with its numbers, only the scoped group for a group administrator', async () => {
    const exportAs = async (token: string, query = '') => {
      const res = await t.get(`/api/admin/stats/export.csv${query}`, token);
      expect(res.status, res.text).toBe(200);
      expect(res.headers['content-type']).toContain('text/csv');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="usage-\d{12}\.csv"$/);
      return parse<Record<string, string>>(res.text, { bom: true, columns: true });
    };
    const row = (m: Member, group: { id: number; name: string } | undefined) => {
      const u = usage.get(m.id)!;
      return {
        date: today,
        group_id: String(group?.id ?? ''),
        group_name: group?.name ?? '',
        user_id: String(m.id),
        username: m.username,
        email: m.email,
        model: u.model,
        messages: String(u.messages),
        tokens: String(u.tokens),
        credits: String(u.credits),
        conversations: String(u.convs),
        // Chat turns only here: all of it went through the site.
        ui_credits: String(u.credits),
        api_credits: '0',
        api_requests: '0',
        api_tokens: '0',
      };
    };
    const byUser = (rows: Record<string, string>[]) => [...rows].sort((x, y) => Number(x.user_id) - Number(y.user_id));
    const defaultGroup = await t.db
      .selectFrom('user_groups')
      .select(['id', 'name'])
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    const all = await exportAs(superToken, '?days=7');
    expect(byUser(all)).toEqual(
      byUser([row(a1, groupA), row(a2, groupA), row(ga, groupA), row(b1, groupB), row(plain, defaultGroup)]),
    );
    expect(byUser(await exportAs(ga.token))).toEqual(byUser([row(a1, groupA), row(a2, groupA), row(ga, groupA)]));
    expect(await exportAs(superToken, `?group_id=${groupB.id}`)).toEqual([row(b1, groupB)]);
    // Yesterday had nothing: a one-day range ending today holds the same rows as seven days.
    expect(byUser(await exportAs(superToken, '?days=1'))).toEqual(byUser(all));
  });
});
