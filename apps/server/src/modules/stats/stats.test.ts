import { type AdminSettings, type UsageOverview, validationEnUS, validationZhCN } from '@aiplatform/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  addModel,
  createChatApp,
  createConversation,
  expectLedgerConsistent,
  ledger,
} from '../../../test/chat-helpers.js';
import {
  answerTokens,
  chatTurn,
  lastDay,
  myStats,
  pinToMidday,
  realtime,
  refundedTurn,
  rollupTables,
  userCredits,
} from '../../../test/stats-helpers.js';
import type { TestApp } from '../../../test/test-app.js';
import { ManualClock } from '../../lib/runtime/clock.js';

/** The zone this process runs in: the statistics zone while none is configured. */
const SERVER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

const PRICE = 7;
const en = validationEnUS as unknown as Record<string, Record<string, string>>;
const zh = validationZhCN as unknown as Record<string, Record<string, string>>;

/** Everything a user and the site's dashboard see of the statistics, for before/after comparisons. */
async function snapshot(t: TestApp, token: string, siteToken: string) {
  const rt = await realtime(t, siteToken);
  return {
    me: (await myStats(t, token)).totals,
    todayConsumed: (await userCredits(t, token)).today_consumed,
    realtime: {
      today_active_users: rt.today_active_users,
      today_messages: rt.today_messages,
      today_tokens: rt.today_tokens,
      today_conversations: rt.today_conversations,
      popular_models: rt.popular_models,
    },
  };
}

describe('usage statistics of chat turns', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    const clock = new ManualClock();
    pinToMidday(clock);
    const chat = await createChatApp({ clock });
    t = chat.t;
    await addModel(t, chat.fake, { name: 'stats-model', display_name: 'Stats Model', credits_per_chat: PRICE });
    admin = (await t.loginAsAdmin()).accessToken;
  });
  afterEach(async () => {
    await expectLedgerConsistent(t);
  });
  afterAll(async () => {
    await t.close();
  });

  async function user() {
    const { session } = await t.signUp();
    return { token: session.accessToken, id: session.user.id };
  }

  it('moves exactly with successful turns: messages, credits, tokens, conversations started', async () => {
    const u = await user();
    const before = await realtime(t, admin);
    const empty = await myStats(t, u.token);
    expect(empty.totals).toEqual({ messages: 0, tokens: 0, credits: 0, conversations: 0, active_users: 0 });

    const c1 = await createConversation(t, u.token, { model_name: 'stats-model' });
    const c2 = await createConversation(t, u.token, { model_name: 'stats-model' });
    // A conversation created but never used is not a conversation started.
    await createConversation(t, u.token, { model_name: 'stats-model' });
    const turns = [
      await chatTurn(t, u.token, c1.id, 'one'),
      await chatTurn(t, u.token, c1.id, 'two [fake:repeat=3]'),
      await chatTurn(t, u.token, c1.id, 'three', { stream: false }),
      await chatTurn(t, u.token, c2.id, 'four', { stream: false }),
    ];
    const n = turns.length;
    const tokens = turns.reduce((s, x) => s + x.tokens, 0);
    expect(tokens).toBeGreaterThan(0);
    expect(await answerTokens(t, u.id)).toBe(tokens);
    expect((await t.userRow(u.id)).token_used).toBe(tokens);

    const me = await myStats(t, u.token);
    const expected = { messages: 2 * n, tokens, credits: n * PRICE, conversations: 2 };
    expect(me.totals).toEqual({ ...expected, active_users: 1 });
    expect(me.days).toHaveLength(30);
    expect(lastDay(me)).toEqual({ date: t.clock.now().toISOString().slice(0, 10), ...expected, active_users: 1 });
    expect(me.days.slice(0, -1).every((d) => d.messages === 0 && d.credits === 0)).toBe(true);
    expect(me.models).toEqual([
      { model_name: 'stats-model', display_name: 'Stats Model', messages: 2 * n, tokens, credits: n * PRICE },
    ]);
    expect(me.groups).toEqual([]);
    expect(me.top_users).toEqual([]);

    const credits = await userCredits(t, u.token);
    expect(credits.today_consumed).toBe(n * PRICE);
    expect(credits.credits_used).toBe(n * PRICE);

    const after = await realtime(t, admin);
    expect(after.today_messages - before.today_messages).toBe(2 * n);
    expect(after.today_tokens - before.today_tokens).toBe(tokens);
    expect(after.today_conversations - before.today_conversations).toBe(2);
    expect(after.today_active_users - before.today_active_users).toBe(1);
    const popular = after.popular_models.find((m) => m.model_name === 'stats-model');
    const popularBefore = before.popular_models.find((m) => m.model_name === 'stats-model')?.usage_count ?? 0;
    expect(popular).toMatchObject({ display_name: 'Stats Model' });
    expect(popular!.usage_count - popularBefore).toBe(n);
    expect(popular!.usage_count).toBeGreaterThanOrEqual(n);
  });

  it('counts a second user of the day once in the active users, and each user sees only their own usage', async () => {
    const u = await user();
    const v = await user();
    const conv = await createConversation(t, u.token, { model_name: 'stats-model' });
    await chatTurn(t, u.token, conv.id, 'first');
    const between = await realtime(t, admin);
    await chatTurn(t, u.token, conv.id, 'second');
    expect((await realtime(t, admin)).today_active_users).toBe(between.today_active_users);
    expect((await myStats(t, v.token)).totals.messages).toBe(0);
    const vc = await createConversation(t, v.token);
    await chatTurn(t, v.token, vc.id, 'hello');
    const after = await realtime(t, admin);
    expect(after.today_active_users).toBe(between.today_active_users + 1);
    expect(after.today_conversations).toBe(between.today_conversations + 1);
    expect((await myStats(t, v.token)).totals).toMatchObject({ messages: 2, credits: 10, conversations: 1 });
    expect((await myStats(t, u.token)).totals).toMatchObject({ messages: 4, credits: 2 * PRICE, conversations: 1 });
  });

  it('leaves every count unchanged for refunded turns; a conversation whose only turn was refunded was not started', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token, { model_name: 'stats-model' });
    await chatTurn(t, u.token, conv.id, 'kept');
    const before = await snapshot(t, u.token, admin);
    const tablesBefore = await rollupTables(t, { nonZeroOnly: true });
    expect(before.me).toMatchObject({ messages: 2, credits: PRICE, conversations: 1 });

    // In a conversation that already has a turn: the upstream fails, or answers nothing.
    await refundedTurn(t, u.token, conv.id, 'boom [fake:error]');
    await refundedTurn(t, u.token, conv.id, 'nothing [fake:empty]', { stream: false });
    // Conversations whose only turn is refunded.
    const failing = await createConversation(t, u.token, { model_name: 'fake-error' });
    await refundedTurn(t, u.token, failing.id, 'first and only');
    const silent = await createConversation(t, u.token, { model_name: 'fake-empty' });
    await refundedTurn(t, u.token, silent.id, 'first and only', { stream: false });

    // The turns were charged and refunded…
    const rows = await ledger(t, u.id);
    expect(rows.filter((r) => r.transaction_type === 'chat_consume')).toHaveLength(5);
    expect(rows.filter((r) => r.transaction_type === 'system_refund')).toHaveLength(4);
    // …and the statistics show only the kept one.
    expect(await snapshot(t, u.token, admin)).toEqual(before);
    expect(await rollupTables(t, { nonZeroOnly: true })).toEqual(tablesBefore);

    // A user whose every turn was refunded is not active today.
    const v = await user();
    const vc = await createConversation(t, v.token, { model_name: 'fake-error' });
    await refundedTurn(t, v.token, vc.id, 'nope');
    expect((await realtime(t, admin)).today_active_users).toBe(before.realtime.today_active_users);
    const vMe = await myStats(t, v.token);
    expect(vMe.totals).toEqual({ messages: 0, tokens: 0, credits: 0, conversations: 0, active_users: 0 });
    expect(vMe.models).toEqual([]);

    // A refunded first turn followed by a kept one: the conversation counts once.
    const retried = await createConversation(t, u.token, { model_name: 'stats-model' });
    await refundedTurn(t, u.token, retried.id, 'first try [fake:error]');
    await chatTurn(t, u.token, retried.id, 'second try');
    expect((await myStats(t, u.token)).totals).toMatchObject({ messages: 4, credits: 2 * PRICE, conversations: 2 });
  });

  it('keeps the statistics when messages are deleted, a conversation cleared or deleted', async () => {
    const u = await user();
    const c1 = await createConversation(t, u.token, { model_name: 'stats-model' });
    const c2 = await createConversation(t, u.token, { model_name: 'stats-model' });
    const c3 = await createConversation(t, u.token);
    const first = await chatTurn(t, u.token, c1.id, 'a');
    await chatTurn(t, u.token, c1.id, 'b');
    await chatTurn(t, u.token, c2.id, 'c');
    await chatTurn(t, u.token, c3.id, 'd');
    const before = await snapshot(t, u.token, admin);
    const tablesBefore = await rollupTables(t);
    expect(before.me).toMatchObject({ messages: 8, credits: 3 * PRICE + 10, conversations: 3 });

    const del = (url: string) => t.request('DELETE', url, { token: u.token });
    expect((await del(`/api/chat/conversations/${c1.id}/messages/${first.answerId}`)).status).toBe(200);
    expect((await t.post(`/api/chat/conversations/${c2.id}/clear`, undefined, u.token)).status).toBe(200);
    expect((await del(`/api/chat/conversations/${c3.id}`)).status).toBe(200);
    expect((await del(`/api/chat/conversations/${c1.id}`)).status).toBe(200);
    // The history is gone…
    expect(await answerTokens(t, u.id)).toBe(0);
    expect(await t.db.selectFrom('conversations').select('id').where('user_id', '=', u.id).execute()).toEqual([
      { id: c2.id },
    ]);
    // …the usage it recorded stays.
    expect(await snapshot(t, u.token, admin)).toEqual(before);
    expect(await rollupTables(t)).toEqual(tablesBefore);
  });

  it('answers 30 days when none are asked, and refuses out-of-range or malformed days and group ids (400)', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token);
    await chatTurn(t, u.token, conv.id, 'x');
    const today = t.clock.now().toISOString().slice(0, 10);
    const check = (o: UsageOverview, days: number) => {
      expect(o.days).toHaveLength(days);
      expect(o.to).toBe(today);
      expect(o.days[days - 1]?.date).toBe(today);
      expect(o.days[0]?.date).toBe(o.from);
    };
    check(await myStats(t, u.token, '?days=7'), 7);
    check(await myStats(t, u.token, '?days=366'), 366);
    const mine = await t.get<UsageOverview>('/api/stats/me', u.token);
    check(mine.body.data, 30);
    expect(mine.body.data.totals.messages).toBe(2);
    for (const days of ['abc', '0', '9999', '367', '-3', '2.5', '']) {
      for (const lang of ['en-US', 'zh-CN']) {
        const res = await t.get(`/api/stats/me?days=${days}`, u.token, lang);
        expect(res.status, `days=${days}`).toBe(400);
        expect(res.body.error).toBe('VALIDATION_FAILED');
        expect(res.body.message).toContain('days');
      }
    }

    const overview = (q: string) => t.get<UsageOverview>(`/api/admin/stats/overview${q}`, admin);
    const plain = await overview('');
    expect(plain.status).toBe(200);
    check(plain.body.data, 30);
    expect(plain.body.data.groups.map((g) => g.group_id)).toEqual([1]);
    for (const q of [
      '?days=-3',
      '?days=abc',
      '?days=0&group_id=abc',
      '?group_id=abc',
      '?group_id=-1',
      '?group_id=1.5',
    ]) {
      const res = await overview(q);
      expect(res.status, q).toBe(400);
      expect(res.body.error, q).toBe('VALIDATION_FAILED');
    }
    expect((await t.get(`/api/admin/stats/export.csv?days=abc&group_id=abc`, admin)).status).toBe(400);
    const csv = await t.get(`/api/admin/stats/export.csv?days=30`, admin);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.text).toContain(`${today},1,`);
  });

  it('refuses an unknown statistics time zone with a translated message, and saves a valid one', async () => {
    const put = (tz: unknown, lang?: string) =>
      t.put<AdminSettings>('/api/admin/settings', { stats: { time_zone: tz } }, admin, lang);
    const english = await put('Mars/Olympus', 'en-US');
    expect(english.status).toBe(400);
    expect(english.body.error).toBe('VALIDATION_FAILED');
    expect(english.body.data).toEqual({ errors: [en.timeZone?.invalid] });
    expect(english.body.message).toBe(en.timeZone?.invalid);
    const chinese = await put('Mars/Olympus', 'zh-CN');
    expect(chinese.status).toBe(400);
    expect(chinese.body.data).toEqual({ errors: [zh.timeZone?.invalid] });
    expect(zh.timeZone?.invalid).not.toBe(en.timeZone?.invalid);
    expect((await put(12, 'en-US')).status).toBe(400);
    const u = await user();
    expect((await myStats(t, u.token)).time_zone).toBe(SERVER_ZONE);

    const saved = await put('Asia/Shanghai');
    expect(saved.status).toBe(200);
    expect(saved.body.data.stats.time_zone).toBe('Asia/Shanghai');
    expect((await t.get<AdminSettings>('/api/admin/settings', admin)).body.data.stats.time_zone).toBe('Asia/Shanghai');
    expect((await myStats(t, u.token)).time_zone).toBe('Asia/Shanghai');
    // Empty: back to the server's own zone.
    expect((await put('')).status).toBe(200);
    expect((await myStats(t, u.token)).time_zone).toBe(SERVER_ZONE);
  });
});
