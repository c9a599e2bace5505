import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupConversations, lastActivity } from './conversation-groups';

/*
 * "Local" is the browser's time zone. The tests pin one with daylight saving time
 * (Berlin: clocks go forward on 29 March 2026) so that day boundaries are checked at
 * local midnight rather than at UTC midnight, which lies an hour or two away.
 */
const ZONE = 'Europe/Berlin';
let previousZone: string | undefined;
beforeAll(() => {
  previousZone = process.env.TZ;
  process.env.TZ = ZONE;
});
afterAll(() => {
  if (previousZone === undefined) delete process.env.TZ;
  else process.env.TZ = previousZone;
});

/** A local wall-clock time in the pinned zone, as the server's ISO UTC text. */
const local = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0) =>
  new Date(y, mo - 1, d, h, mi, s, ms).toISOString();

interface Row {
  id: string;
  is_pinned: boolean;
  last_message_at: string | null;
  updated_at: string;
  created_at: string;
}

const row = (id: string, at: string | null, extra: Partial<Row> = {}): Row => ({
  id,
  is_pinned: false,
  last_message_at: at,
  updated_at: at ?? '',
  created_at: at ?? '',
  ...extra,
});

const summary = (rows: Row[], now: Date) =>
  groupConversations(rows, now).map((g) => [g.key, g.conversations.map((c) => c.id)]);

describe('groupConversations', () => {
  it('uses the time zone pinned for this file', () => {
    expect(new Date(2026, 0, 15).toISOString()).toBe('2026-01-14T23:00:00.000Z');
  });

  it('splits at local midnight, not at UTC midnight', () => {
    const now = new Date(2026, 5, 10, 0, 30); // 10 June, 00:30 local = 9 June 22:30 UTC
    const rows = [
      row('today-first-ms', local(2026, 6, 10, 0, 0, 0, 0)),
      row('yesterday-last-ms', local(2026, 6, 9, 23, 59, 59, 999)),
      row('yesterday-first-ms', local(2026, 6, 9)),
      row('two-days', local(2026, 6, 8, 23, 59, 59, 999)),
      row('seventh-day-start', local(2026, 6, 3)),
      row('before-the-week', local(2026, 6, 2, 23, 59, 59, 999)),
    ];
    expect(summary(rows, now)).toEqual([
      ['today', ['today-first-ms']],
      ['yesterday', ['yesterday-last-ms', 'yesterday-first-ms']],
      ['previous7', ['two-days', 'seventh-day-start']],
      ['older', ['before-the-week']],
    ]);
    // Both of the first two are on 9 June in UTC: a UTC split would call them the same day.
    expect(rows[0]?.last_message_at?.slice(0, 10)).toBe('2026-06-09');
  });

  it('counts whole local days across the change to summer time (a 23-hour day)', () => {
    const now = new Date(2026, 2, 30, 12); // 30 March; 29 March had 23 hours
    const rows = [
      row('yesterday-start', local(2026, 3, 29)),
      row('day-before', local(2026, 3, 28, 23, 30)),
      row('week-start', local(2026, 3, 23)),
      row('week-before', local(2026, 3, 22, 23, 59)),
    ];
    expect(summary(rows, now)).toEqual([
      ['yesterday', ['yesterday-start']],
      ['previous7', ['day-before', 'week-start']],
      ['older', ['week-before']],
    ]);
  });

  it('puts pinned conversations first whatever their age, and keeps the given order inside a group', () => {
    const now = new Date(2026, 5, 10, 15);
    const rows = [
      row('old-pinned', local(2020, 1, 1), { is_pinned: true }),
      row('today-b', local(2026, 6, 10, 9)),
      row('today-pinned', local(2026, 6, 10, 14), { is_pinned: true }),
      row('today-a', local(2026, 6, 10, 14, 30)),
    ];
    expect(summary(rows, now)).toEqual([
      ['pinned', ['old-pinned', 'today-pinned']],
      ['today', ['today-b', 'today-a']],
    ]);
  });

  it('falls back from the last message to the last change, then to the creation; unreadable dates go to "older"', () => {
    const now = new Date(2026, 5, 10, 15);
    const rows = [
      row('no-message-updated-today', null, { updated_at: local(2026, 6, 10, 8), created_at: local(2026, 1, 1) }),
      row('message-yesterday-updated-today', local(2026, 6, 9, 8), { updated_at: local(2026, 6, 10, 8) }),
      row('only-created', null, { updated_at: '', created_at: local(2026, 6, 9, 12) }),
      row('nothing-readable', null, { updated_at: 'not a date', created_at: '' }),
      row('ahead-of-the-clock', local(2026, 6, 11, 9)),
    ];
    expect(summary(rows, now)).toEqual([
      ['today', ['no-message-updated-today', 'ahead-of-the-clock']],
      ['yesterday', ['message-yesterday-updated-today', 'only-created']],
      ['older', ['nothing-readable']],
    ]);
    expect(lastActivity(rows[3] as Row)).toBeNaN();
  });

  it('leaves out empty groups and gives nothing for an empty list', () => {
    expect(groupConversations([], new Date())).toEqual([]);
    const now = new Date(2026, 5, 10, 15);
    expect(summary([row('a', local(2025, 1, 1))], now)).toEqual([['older', ['a']]]);
  });
});
