import type { UsageOverview } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatApp, createConversation, expectLedgerConsistent } from '../../../test/chat-helpers.js';
import {
  chatTurn,
  lastDay,
  myStats,
  realtime,
  rollupTables,
  setClock,
  userCredits,
} from '../../../test/stats-helpers.js';
import type { TestApp } from '../../../test/test-app.js';
import { ManualClock } from '../../lib/runtime/clock.js';

const HOUR = 3_600_000;
/** Asia/Shanghai is UTC+8 all year (no daylight saving). */
const SHANGHAI_OFFSET = 8 * HOUR;
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const SERVER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const serverDay = (ms: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: SERVER_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    ms,
  );

/*
 * A statistics day is a day of the configured zone. Around midnight in Shanghai (16:00 UTC)
 * the zone's date and UTC's differ, so a day cut in the wrong zone shows.
 */
describe('statistics days in the configured time zone', () => {
  let t: TestApp;
  let admin: string;
  let user: { token: string; id: number };
  /** The next midnight in Shanghai, as an instant. */
  let midnight: number;
  /** The Shanghai date that ends at `midnight`, and the one it starts. */
  let before: string;
  let after: string;

  beforeAll(async () => {
    const clock = new ManualClock();
    const now = clock.now().getTime();
    // Next Shanghai midnight at least two hours ahead, so that setup stays before it.
    midnight = (Math.floor((now + SHANGHAI_OFFSET) / (24 * HOUR)) + 1) * 24 * HOUR - SHANGHAI_OFFSET;
    if (midnight - now < 2 * HOUR) midnight += 24 * HOUR;
    before = utcDay(midnight - 1 + SHANGHAI_OFFSET);
    after = utcDay(midnight + SHANGHAI_OFFSET);
    // Start an hour before it: everything set up (and every token issued) is valid at midnight.
    setClock(clock, new Date(midnight - HOUR));
    ({ t } = await createChatApp({ clock }));
    admin = (await t.loginAsAdmin()).accessToken;
    const { session } = await t.signUp();
    user = { token: session.accessToken, id: session.user.id };
  });
  afterAll(async () => {
    await expectLedgerConsistent(t);
    await t.close();
  });

  const setZone = async (time_zone: string) => {
    const res = await t.put('/api/admin/settings', { stats: { time_zone } }, admin);
    expect(res.status, res.text).toBe(200);
  };
  const dayRows = async () =>
    (await rollupTables(t)).daily
      .filter((r) => r.user_id === user.id)
      .map((r) => ({ day: r.day, messages: r.messages, credits: r.credits, conversations: r.conversations }));

  it('files a turn just before midnight under that day and one just after under the next', async () => {
    await setZone('Asia/Shanghai');
    const conv = await createConversation(t, user.token);

    setClock(t.clock, new Date(midnight - 10_000));
    expect(utcDay(t.clock.now().getTime())).toBe(before);
    const evening1 = await chatTurn(t, user.token, conv.id, 'late evening');
    expect(t.clock.now().getTime()).toBeLessThan(midnight);
    expect(await dayRows()).toEqual([{ day: before, messages: 2, credits: 10, conversations: 1 }]);
    const evening = await myStats(t, user.token, '?days=7');
    expect(evening.to).toBe(before);
    expect(lastDay(evening)).toMatchObject({ date: before, messages: 2 });

    setClock(t.clock, new Date(midnight + 10_000));
    // UTC still reads the earlier date: only the zone says it is a new day.
    expect(utcDay(t.clock.now().getTime())).toBe(before);
    const night = await chatTurn(t, user.token, conv.id, 'just after midnight');
    expect(await dayRows()).toEqual([
      { day: before, messages: 2, credits: 10, conversations: 1 },
      { day: after, messages: 2, credits: 10, conversations: 0 },
    ]);

    const me = await myStats(t, user.token, '?days=7');
    expect(me.time_zone).toBe('Asia/Shanghai');
    expect(me.to).toBe(after);
    expect(me.days).toHaveLength(7);
    expect(me.days.slice(-2)).toEqual([
      { date: before, messages: 2, tokens: evening1.tokens, credits: 10, conversations: 1, active_users: 1 },
      { date: after, messages: 2, tokens: night.tokens, credits: 10, conversations: 0, active_users: 1 },
    ]);
    // "Today" is the zone's new day: only the turn after midnight.
    const rt = await realtime(t, user.token);
    expect(rt).toMatchObject({ today_messages: 2, today_conversations: 0, today_active_users: 1 });
    expect((await userCredits(t, user.token)).today_consumed).toBe(10);
    const overview = await t.get<UsageOverview>('/api/admin/stats/overview?days=2', admin);
    expect(overview.body.data).toMatchObject({ time_zone: 'Asia/Shanghai', from: before, to: after });
    expect(overview.body.data.days.map((d) => [d.date, d.messages])).toEqual([
      [before, 2],
      [after, 2],
    ]);
  });

  it("goes back to the server's zone when the setting is emptied; stored days stay as they were", async () => {
    await setZone('');
    const me = await myStats(t, user.token, '?days=2');
    expect(me.time_zone).toBe(SERVER_ZONE);
    const today = serverDay(t.clock.now().getTime());
    expect(me.to).toBe(today);
    expect(lastDay(me).date).toBe(today);
    const conv = await createConversation(t, user.token);
    await chatTurn(t, user.token, conv.id, "filed by the server's zone");
    // The two Shanghai days keep their turns; the new one goes to the server's day.
    const expected = new Map([
      [before, [2, 1]],
      [after, [2, 0]],
    ]);
    const [m, c] = expected.get(today) ?? [0, 0];
    expected.set(today, [m! + 2, c! + 1]);
    expect((await dayRows()).map((r) => [r.day, r.messages, r.conversations])).toEqual(
      [...expected].sort(([a], [b]) => a.localeCompare(b)).map(([day, [msgs, convs]]) => [day, msgs, convs]),
    );
    if (SERVER_ZONE === 'UTC') expect(today).toBe(before);
  });
});
