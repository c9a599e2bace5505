import type { Settings } from '@aiplatform/contracts';
import type { Clock } from '../../lib/runtime/clock.js';
import type { SettingsService } from '../settings/settings.service.js';

let processZone: string | undefined;

/**
 * The zone this process runs in (the `TZ` variable, else the system's). Read once: it is
 * fixed for the life of the process, and asking Intl builds a formatter each time (a
 * noticeable share of a chat send's CPU).
 */
export function serverTimeZone(): string {
  processZone ??= Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  return processZone;
}

/** The statistics zone of a configuration: the chosen one, else the server's. */
export function statsTimeZone(settings: Settings): string {
  return settings.stats.time_zone || serverTimeZone();
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** `YYYY-MM-DD` of an instant as seen in a time zone. */
export function dayIn(instant: Date | string, timeZone: string): string {
  let f = formatters.get(timeZone);
  if (!f) {
    // en-CA writes dates as YYYY-MM-DD.
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, f);
  }
  return f.format(typeof instant === 'string' ? new Date(instant) : instant);
}

/** The day `n` days after (or before, for negative `n`) a `YYYY-MM-DD` day. */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** Every day from `from` to `to`, both included, oldest first. */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

/**
 * Where a statistics day starts: the configured zone, else the server's. Every
 * rollup row is filed under the day its turn began in this zone; changing the zone
 * files new turns differently but leaves stored days as they were.
 */
export class StatsCalendar {
  constructor(
    private readonly settings: SettingsService,
    private readonly clock: Clock,
  ) {}

  async timeZone(): Promise<string> {
    return statsTimeZone(await this.settings.getSettings());
  }

  async dayOf(instant: Date | string): Promise<string> {
    return dayIn(instant, await this.timeZone());
  }

  /** Today and the first day of a range of `days` days ending today. */
  async range(days: number): Promise<{ timeZone: string; from: string; to: string }> {
    const timeZone = await this.timeZone();
    const to = dayIn(this.clock.now(), timeZone);
    return { timeZone, from: addDays(to, 1 - days), to };
  }
}
