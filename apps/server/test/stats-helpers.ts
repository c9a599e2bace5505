import type { NonStreamAnswer, RealtimeStats, UsageOverview, UserCreditsStats } from '@aiplatform/contracts';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { ManualClock } from '../src/lib/runtime/clock.js';
import { eventData, sendStreamed } from './chat-helpers.js';
import type { TestApp } from './test-app.js';

/** Moves a ManualClock so that it reads `instant` now (it keeps ticking from there). */
export function setClock(clock: ManualClock, instant: Date | string): void {
  clock.advance(new Date(instant).getTime() - clock.now().getTime());
}

/**
 * Puts a ManualClock at 12:00 UTC of the current day, so that a run close to midnight
 * cannot see "today" change between two reads (in any zone up to ±11 h from UTC).
 */
export function pinToMidday(clock: ManualClock): void {
  setClock(clock, `${clock.now().toISOString().slice(0, 10)}T12:00:00.000Z`);
}

/** One successful turn; returns the answer's id and the tokens the server counted for it. */
export async function chatTurn(
  t: TestApp,
  token: string,
  conversationId: string,
  content: string,
  opts: { stream?: boolean } = {},
): Promise<{ answerId: string; tokens: number }> {
  if (opts.stream === false) {
    const res = await t.post<NonStreamAnswer>(
      `/api/chat/conversations/${conversationId}/messages`,
      { content, stream: false },
      token,
    );
    if (res.status !== 200) throw new Error(`turn failed: ${res.status} ${res.text}`);
    return { answerId: res.body.data.assistant_message.id, tokens: res.body.data.assistant_message.tokens };
  }
  const res = await sendStreamed(t, token, conversationId, { content });
  const done = eventData(res.events, 'done');
  if (res.status !== 200 || done.length !== 1) throw new Error(`turn failed: ${res.status} ${res.text}`);
  return { answerId: done[0]!.messageId, tokens: done[0]!.tokens };
}

/** A turn the server refunds (the upstream fails or answers nothing); checks that it did. */
export async function refundedTurn(
  t: TestApp,
  token: string,
  conversationId: string,
  content: string,
  opts: { stream?: boolean } = {},
): Promise<void> {
  if (opts.stream === false) {
    const res = await t.post(`/api/chat/conversations/${conversationId}/messages`, { content, stream: false }, token);
    expect(res.status, res.text).toBe(502);
    expect(res.body.error).toBe('UPSTREAM_ERROR');
    return;
  }
  const res = await sendStreamed(t, token, conversationId, { content });
  expect(res.status).toBe(200);
  expect(eventData(res.events, 'done')).toEqual([]);
  expect(eventData(res.events, 'error').map((e) => e.error)).toEqual(['UPSTREAM_ERROR']);
}

export async function myStats(t: TestApp, token: string, query = ''): Promise<UsageOverview> {
  const res = await t.get<UsageOverview>(`/api/stats/me${query}`, token);
  if (res.status !== 200) throw new Error(`/stats/me: ${res.status} ${res.text}`);
  return res.body.data;
}

export async function realtime(t: TestApp, token: string): Promise<RealtimeStats> {
  const res = await t.get<RealtimeStats>('/api/stats/realtime', token);
  if (res.status !== 200) throw new Error(`/stats/realtime: ${res.status} ${res.text}`);
  return res.body.data;
}

export async function userCredits(t: TestApp, token: string): Promise<UserCreditsStats> {
  const res = await t.get<UserCreditsStats>('/api/stats/user-credits', token);
  if (res.status !== 200) throw new Error(`/stats/user-credits: ${res.status} ${res.text}`);
  return res.body.data;
}

/** The last entry of an overview's days (the range ends today). */
export function lastDay(o: UsageOverview) {
  const d = o.days[o.days.length - 1];
  if (!d) throw new Error('no days in the overview');
  return d;
}

/** Tokens of a user's stored answers, by the messages table. */
export async function answerTokens(t: TestApp, userId: number): Promise<number> {
  const row = await t.db
    .selectFrom('messages')
    .innerJoin('conversations', 'conversations.id', 'messages.conversation_id')
    .where('conversations.user_id', '=', userId)
    .where('messages.role', '=', 'assistant')
    .select(sql<string>`coalesce(sum(messages.tokens), 0)`.as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface RollupCounts {
  messages: number;
  tokens: number;
  credits: number;
  conversations: number;
}

const counts = (r: { messages: unknown; tokens: unknown; credits: unknown; conversations: unknown }) => ({
  messages: Number(r.messages),
  tokens: Number(r.tokens),
  credits: Number(r.credits),
  conversations: Number(r.conversations),
});
const nonZero = (r: RollupCounts) => r.messages !== 0 || r.tokens !== 0 || r.credits !== 0 || r.conversations !== 0;

/**
 * Both rollup tables in a stable order, numbers as numbers. With `nonZeroOnly`, rows whose
 * counters are all zero (a key whose only turns were refunded) are left out.
 */
export async function rollupTables(t: TestApp, opts: { nonZeroOnly?: boolean } = {}) {
  const daily = (await t.db.selectFrom('usage_daily').selectAll().execute())
    .map((r) => ({ day: r.day, user_id: r.user_id, model_name: r.model_name, group_id: r.group_id, ...counts(r) }))
    .filter((r) => !opts.nonZeroOnly || nonZero(r))
    .sort(
      (a, b) =>
        a.day.localeCompare(b.day) ||
        a.user_id - b.user_id ||
        a.model_name.localeCompare(b.model_name) ||
        a.group_id - b.group_id,
    );
  const totals = (await t.db.selectFrom('usage_daily_totals').selectAll().execute())
    .map((r) => ({ day: r.day, group_id: r.group_id, model_name: r.model_name, ...counts(r) }))
    .filter((r) => !opts.nonZeroOnly || nonZero(r))
    .sort((a, b) => a.day.localeCompare(b.day) || a.group_id - b.group_id || a.model_name.localeCompare(b.model_name));
  return { daily, totals };
}
