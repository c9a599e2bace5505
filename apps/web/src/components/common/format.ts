/*
 * Creating an Intl formatter costs far more than using one, and long lists (a chat of
 * thousands of messages) format many dates, so formatters are kept per language and style.
 */
const dateFormatters = new Map<string, Intl.DateTimeFormat>();

function dateFormatter(language: string, withTime: boolean): Intl.DateTimeFormat {
  const key = `${language}|${withTime}`;
  let formatter = dateFormatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(
      language,
      withTime ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'medium' },
    );
    dateFormatters.set(key, formatter);
  }
  return formatter;
}

/** Locale-aware display of server timestamps and numbers; unreadable input is shown as is. */
export function formatDateTime(value: string | null | undefined, language: string): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return dateFormatter(language, true).format(date);
}

export function formatDate(value: string | null | undefined, language: string): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return dateFormatter(language, false).format(date);
}

export function formatNumber(value: number, language: string): string {
  return new Intl.NumberFormat(language).format(value);
}

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** A size in binary units (1 KB = 1,024 bytes) with at most one decimal: "512 B", "1.5 GB". */
export function formatBytes(bytes: number, language: string): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const figure = new Intl.NumberFormat(language, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value);
  return `${figure} ${BYTE_UNITS[unit]}`;
}
