import { describe, expect, it } from 'vitest';
import { periodStartDay } from './key-period.js';

describe('a key limit’s period', () => {
  it('starts on the day, the Monday of the week, the first of the month, or never', () => {
    // 2026-11-27 is a Friday.
    expect(periodStartDay('day', '2026-11-27')).toBe('2026-11-27');
    expect(periodStartDay('week', '2026-11-27')).toBe('2026-11-23');
    expect(periodStartDay('week', '2026-11-23')).toBe('2026-11-23');
    expect(periodStartDay('week', '2026-11-29')).toBe('2026-11-23');
    expect(periodStartDay('week', '2026-03-01')).toBe('2026-02-23');
    expect(periodStartDay('month', '2026-11-27')).toBe('2026-11-01');
    expect(periodStartDay('total', '2026-11-27')).toBeNull();
  });
});
