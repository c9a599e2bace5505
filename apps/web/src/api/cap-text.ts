import type { CapPeriod, CapStatus } from '@aiplatform/contracts';
import type { TFunction } from 'i18next';

const timeFormatters = new Map<string, Intl.DateTimeFormat>();

function formatter(language: string, withDate: boolean): Intl.DateTimeFormat {
  const key = `${language}|${withDate}`;
  let f = timeFormatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(language, {
      ...(withDate ? { month: 'short', day: 'numeric' } : {}),
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    timeFormatters.set(key, f);
  }
  return f;
}

/**
 * When a cap's window resets, as short as is still clear: the time alone when it is
 * within a day (a daily cap: "00:00"), with the date further away (weekly and monthly).
 */
export function resetTimeText(resetsAt: string, now: Date, language: string): string {
  const at = new Date(resetsAt);
  if (Number.isNaN(at.getTime())) return resetsAt;
  const withinDay = at.getTime() - now.getTime() <= 24 * 3600_000;
  return formatter(language, !withinDay).format(at);
}

/** "Daily cap", "Weekly cap (gpt-4o)": the cap's name as the person reads it. */
export function capName(t: TFunction, period: CapPeriod, modelName: string | null | undefined): string {
  const name = t(`common:caps.period.${period}`);
  return modelName ? t('common:caps.withModel', { name, model: modelName }) : name;
}

/** "Daily cap 120 / 200 · resets 00:00" */
export function capLine(t: TFunction, cap: CapStatus, now: Date, language: string): string {
  return t('common:caps.line', {
    name: capName(t, cap.period, cap.model_name),
    used: new Intl.NumberFormat(language).format(cap.used),
    limit: new Intl.NumberFormat(language).format(cap.limit),
    time: resetTimeText(cap.resets_at, now, language),
  });
}

/** The cap closest to being reached, the one a compact place shows. */
export function tightestCap(caps: readonly CapStatus[]): CapStatus | undefined {
  return [...caps].sort((a, b) => b.used / b.limit - a.used / a.limit)[0];
}

/** Reads the data of a CAP_REACHED refusal, or undefined when it is not one. */
export function capReachedData(
  code: string | undefined,
  data: Record<string, unknown> | undefined,
): { period: CapPeriod; limit: number; used: number; resets_at: string; model_name: string | null } | undefined {
  if (code !== 'CAP_REACHED' || !data) return undefined;
  const { period, limit, used, resets_at, model_name } = data;
  if (
    (period !== 'day' && period !== 'week' && period !== 'month') ||
    typeof limit !== 'number' ||
    typeof used !== 'number' ||
    typeof resets_at !== 'string'
  )
    return undefined;
  return { period, limit, used, resets_at, model_name: typeof model_name === 'string' ? model_name : null };
}

/** The refusal of a send that would pass a cap: which cap, how much of it is used, when it resets. */
export function capReachedText(
  t: TFunction,
  refusal: NonNullable<ReturnType<typeof capReachedData>>,
  now: Date,
  language: string,
): string {
  return t('common:caps.reached', {
    name: capName(t, refusal.period, refusal.model_name),
    used: new Intl.NumberFormat(language).format(refusal.used),
    limit: new Intl.NumberFormat(language).format(refusal.limit),
    time: resetTimeText(refusal.resets_at, now, language),
  });
}

/**
 * The text of a failed call: for a CAP_REACHED refusal the web's own sentence (its reset
 * time in the reader's clock and language), otherwise `fallback` (the server's text).
 */
export function capAwareMessage(
  t: TFunction,
  language: string,
  code: string | undefined,
  data: Record<string, unknown> | undefined,
  fallback: string,
): string {
  const refusal = capReachedData(code, data);
  return refusal ? capReachedText(t, refusal, new Date(), language) : fallback;
}
