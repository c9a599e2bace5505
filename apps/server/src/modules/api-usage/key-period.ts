import { addDays } from '../stats/stats-calendar.js';

/** The periods a key's credit limit may run over. */
export type KeyPeriod = 'day' | 'week' | 'month' | 'total';

/**
 * The first statistics day of the period that `today` (a `YYYY-MM-DD` day in the site's
 * statistics zone) lies in: the day itself, the Monday of its week, the first of its
 * month; null for `total` (the key's whole life).
 */
export function periodStartDay(period: KeyPeriod, today: string): string | null {
  switch (period) {
    case 'day':
      return today;
    case 'week': {
      // getUTCDay: 0 = Sunday; weeks start on Monday.
      const weekday = new Date(`${today}T00:00:00Z`).getUTCDay();
      return addDays(today, -((weekday + 6) % 7));
    }
    case 'month':
      return `${today.slice(0, 7)}-01`;
    case 'total':
      return null;
  }
}
