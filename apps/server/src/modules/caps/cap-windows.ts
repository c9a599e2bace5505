import type { CapPeriod } from '@aiplatform/contracts';
import { addDays } from '../stats/stats-calendar.js';

/*
 * A cap counts credits per window: a day, a week starting on Monday, or a calendar month,
 * all in the statistics time zone, so a cap's window and the statistics' days agree. A
 * window is named by its first day (`YYYY-MM-DD`); a turn falls in the window of the day
 * it began, which is what its charge and its refund both file it under.
 */

/** The first day of the window of `period` that contains `day`. */
export function windowStart(period: CapPeriod, day: string): string {
  if (period === 'day') return day;
  if (period === 'month') return `${day.slice(0, 7)}-01`;
  // getUTCDay: 0 is Sunday; Monday starts the week.
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

/** The first day of the next window. */
export function nextWindowStart(period: CapPeriod, day: string): string {
  const start = windowStart(period, day);
  if (period === 'day') return addDays(start, 1);
  if (period === 'week') return addDays(start, 7);
  const d = new Date(`${start}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d.toISOString().slice(0, 10);
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** How far ahead of UTC the zone's wall clock is at an instant, in milliseconds. */
function zoneOffsetMs(instant: number, timeZone: string): number {
  let f = offsetFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    offsetFormatters.set(timeZone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  const wall = Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!);
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The instant a day begins in a time zone, as ISO-8601 UTC. */
export function startOfDayIn(day: string, timeZone: string): string {
  const midnightUtc = Date.parse(`${day}T00:00:00Z`);
  let t = midnightUtc - zoneOffsetMs(midnightUtc, timeZone);
  // Across a change of offset the first guess is an hour off: correct it once.
  t = midnightUtc - zoneOffsetMs(t, timeZone);
  return new Date(t).toISOString();
}

/** When the window of `period` containing `day` ends and a fresh one starts. */
export function resetsAt(period: CapPeriod, day: string, timeZone: string): string {
  return startOfDayIn(nextWindowStart(period, day), timeZone);
}
