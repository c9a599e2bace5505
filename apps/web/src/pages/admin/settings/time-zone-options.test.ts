import { describe, expect, it } from 'vitest';
import { timeZoneOptions, utcOffset } from './time-zone-options';

const WINTER = new Date('2025-01-15T12:00:00Z');
const SUMMER = new Date('2025-07-15T12:00:00Z');

describe('time zone options', () => {
  it('name the distance from UTC at the given moment', () => {
    expect(utcOffset('Asia/Shanghai', WINTER)).toBe('UTC+08:00');
    expect(utcOffset('Europe/Berlin', WINTER)).toBe('UTC+01:00');
    expect(utcOffset('Europe/Berlin', SUMMER)).toBe('UTC+02:00');
    expect(utcOffset('UTC', WINTER)).toBe('UTC+00:00');
    expect(utcOffset('Europe/London', WINTER)).toBe('UTC+00:00');
    expect(utcOffset('Not/AZone', WINTER)).toBe('');
  });

  it('add UTC and the stored zone to what the browser lists, sorted', () => {
    const options = timeZoneOptions(['Europe/Berlin', 'Asia/Shanghai'], 'America/Argentina/ComodRivadavia', WINTER);
    expect(options.map((o) => o.value)).toEqual([
      'America/Argentina/ComodRivadavia',
      'Asia/Shanghai',
      'Europe/Berlin',
      'UTC',
    ]);
    expect(options.find((o) => o.value === 'Asia/Shanghai')?.label).toBe('Asia/Shanghai (UTC+08:00)');
    expect(options.find((o) => o.value === 'UTC')?.label).toBe('UTC');
  });

  it('list each zone once, and no empty one for the server default', () => {
    const options = timeZoneOptions(['UTC', 'Asia/Tokyo'], '', WINTER);
    expect(options.map((o) => o.value)).toEqual(['Asia/Tokyo', 'UTC']);
  });
});
