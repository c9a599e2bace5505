/** A time zone as a select option: its IANA name and its current distance from UTC. */
export interface TimeZoneOption {
  value: string;
  label: string;
}

/** `UTC+08:00` for a zone at an instant (daylight saving time shifts it); '' for an unknown zone. */
export function utcOffset(zone: string, at: Date): string {
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(at);
    const name = parts.find((part) => part.type === 'timeZoneName')?.value ?? '';
    // Some engines write no offset at all for zero.
    return name === 'GMT' || name === '' ? 'UTC+00:00' : name.replace(/^GMT/, 'UTC');
  } catch {
    return '';
  }
}

/**
 * The zones to offer: those the browser knows, plus `UTC` (some browsers list only
 * regional names) and the stored value, so a zone this browser does not list still
 * shows as chosen rather than as a bare value.
 */
export function timeZoneOptions(supported: readonly string[], current: string, at: Date): TimeZoneOption[] {
  const zones = new Set(supported);
  zones.add('UTC');
  if (current) zones.add(current);
  return [...zones]
    .sort((a, b) => a.localeCompare(b))
    .map((zone) => {
      const offset = utcOffset(zone, at);
      return { value: zone, label: offset && zone !== 'UTC' ? `${zone} (${offset})` : zone };
    });
}

/** IANA names this browser can convert to; empty where the list is not available. */
export function browserTimeZones(): string[] {
  return typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
}
