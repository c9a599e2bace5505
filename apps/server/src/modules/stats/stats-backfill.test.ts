import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroupAsAdmin, createUserAsAdmin } from '../../../test/admin-helpers.js';
import {
  addModel,
  createChatApp,
  createConversation,
  eventData,
  expectLedgerConsistent,
  sendStreamed,
} from '../../../test/chat-helpers.js';
import { chatTurn, refundedTurn, rollupTables, setClock } from '../../../test/stats-helpers.js';
import type { TestApp } from '../../../test/test-app.js';
import { ManualClock } from '../../lib/runtime/clock.js';
import { backfillUsageRollups } from '../../db/migrations/0007-usage-rollups.js';

const HOUR = 3_600_000;
const ZONE = 'Asia/Shanghai';

/*
 * The migration that created the rollups filled them from the stored history. Built from
 * the same history, they must equal what the live path wrote turn by turn.
 */
describe('usage rollups back-filled from the chat history', () => {
  let t: TestApp;
  beforeAll(async () => {
    const clock = new ManualClock();
    // 17:00 UTC is already the next day in Shanghai: a back-fill cutting days in UTC would differ.
    setClock(clock, `${clock.now().toISOString().slice(0, 10)}T17:00:00.000Z`);
    const chat = await createChatApp({ clock });
    t = chat.t;
    await addModel(t, chat.fake, { name: 'priced-model', credits_per_chat: 7 });
    await addModel(t, chat.fake, { name: 'free-model', credits_per_chat: 0 });
  });
  afterAll(async () => {
    await t.close();
  });

  it('rebuilds exactly what the live path produced', async () => {
    let admin = (await t.loginAsAdmin()).accessToken;
    await t.put('/api/admin/settings', { stats: { time_zone: ZONE } }, admin);
    const group = await createGroupAsAdmin(t, admin);
    const u1 = await t.signUp();
    const u2 = await createUserAsAdmin(t, admin, { group_id: group.id });
    const u3 = await t.signUp();
    const tokens = async () => ({
      u1: (await t.tokensFor(u1.creds.email, u1.creds.password)).accessToken,
      u2: (await t.tokensFor(u2.email, u2.password)).accessToken,
      u3: (await t.tokensFor(u3.creds.email, u3.creds.password)).accessToken,
    });
    let tk = await tokens();

    // Day one: several models, a refund in a used conversation, a kept partial answer,
    // a free model, and a conversation whose only turn was refunded.
    const a = await createConversation(t, tk.u1, { model_name: 'priced-model' });
    const b = await createConversation(t, tk.u1);
    const c = await createConversation(t, tk.u2, { model_name: 'free-model' });
    const d = await createConversation(t, tk.u2, { model_name: 'fake-drop' });
    const e = await createConversation(t, tk.u3, { model_name: 'fake-error' });
    await chatTurn(t, tk.u1, a.id, 'a1');
    await chatTurn(t, tk.u1, a.id, 'a2 [fake:repeat=2]', { stream: false });
    await refundedTurn(t, tk.u1, a.id, 'a3 [fake:error]');
    await chatTurn(t, tk.u1, b.id, 'b1');
    await chatTurn(t, tk.u2, c.id, 'c1');
    const dropped = await sendStreamed(t, tk.u2, d.id, { content: 'd1' });
    expect(eventData(dropped.events, 'message').length).toBeGreaterThan(0);
    expect(eventData(dropped.events, 'error').map((x) => x.error)).toEqual(['UPSTREAM_ERROR']);
    await refundedTurn(t, tk.u3, e.id, 'e1');

    // Day two (tokens issued yesterday have expired).
    t.clock.advance(24 * HOUR);
    tk = await tokens();
    admin = (await t.loginAsAdmin()).accessToken;
    await chatTurn(t, tk.u1, a.id, 'a4');
    const f = await createConversation(t, tk.u1, { model_name: 'priced-model' });
    await chatTurn(t, tk.u1, f.id, 'f1');
    await chatTurn(t, tk.u2, c.id, 'c2', { stream: false });
    await expectLedgerConsistent(t);

    const live = await rollupTables(t, { nonZeroOnly: true });
    // The scenario did what it meant to: two Shanghai days, both groups, the partial answer kept.
    const shanghaiDay = (ms: number) => new Date(ms + 8 * HOUR).toISOString().slice(0, 10);
    const now = t.clock.now().getTime();
    expect([...new Set(live.daily.map((r) => r.day))]).toEqual([shanghaiDay(now - 24 * HOUR), shanghaiDay(now)]);
    expect(shanghaiDay(now)).not.toBe(new Date(now).toISOString().slice(0, 10));
    expect(new Set(live.daily.map((r) => r.group_id))).toEqual(new Set([1, group.id]));
    expect(live.daily.reduce((s, r) => s + r.conversations, 0)).toBe(5);
    expect(live.daily.reduce((s, r) => s + r.messages, 0)).toBe(16);
    expect(live.daily.find((r) => r.model_name === 'fake-drop')).toMatchObject({ messages: 2, credits: 10 });
    expect(live.daily.find((r) => r.model_name === 'fake-drop')!.tokens).toBeGreaterThan(0);

    await t.db.deleteFrom('usage_daily').execute();
    await t.db.deleteFrom('usage_daily_totals').execute();
    expect(await rollupTables(t)).toEqual({ daily: [], totals: [] });

    expect(await backfillUsageRollups(t.db as unknown as Kysely<unknown>, ZONE)).toBe(8);
    expect(await rollupTables(t)).toEqual(live);
    await expectLedgerConsistent(t);
  });
});
