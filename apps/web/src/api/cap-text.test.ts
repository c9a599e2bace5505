import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { capAwareMessage, capReachedData, resetTimeText, tightestCap } from './cap-text';

const t = ((key: string, params?: Record<string, unknown>) =>
  params ? `${key}${JSON.stringify(params)}` : key) as unknown as TFunction;

describe('cap texts', () => {
  it('shows the time alone within a day, the date too further away', () => {
    const now = new Date('2026-03-02T10:00:00Z');
    const soon = resetTimeText('2026-03-02T16:00:00Z', now, 'en-US');
    const later = resetTimeText('2026-03-09T16:00:00Z', now, 'en-US');
    expect(soon).toMatch(/^\d\d:\d\d$/);
    expect(later).toContain('Mar');
    expect(resetTimeText('not a time', now, 'en-US')).toBe('not a time');
  });

  it('reads a CAP_REACHED refusal and turns it into the web sentence', () => {
    const data = { period: 'day', limit: 200, used: 190, resets_at: '2026-03-03T00:00:00Z', model_name: null };
    expect(capReachedData('INSUFFICIENT_CREDITS', data)).toBeUndefined();
    expect(capReachedData('CAP_REACHED', { ...data, period: 'year' })).toBeUndefined();
    expect(capReachedData('CAP_REACHED', data)).toEqual(data);
    const text = capAwareMessage(t, 'en-US', 'CAP_REACHED', data, 'server text');
    expect(text).toContain('common:caps.reached');
    expect(text).toContain('"limit":"200"');
    expect(capAwareMessage(t, 'en-US', 'OTHER', data, 'server text')).toBe('server text');
  });

  it('picks the cap closest to its limit', () => {
    const cap = (period: 'day' | 'week', used: number, limit: number) => ({
      period,
      model_name: null,
      source: 'user' as const,
      used,
      limit,
      resets_at: '',
    });
    expect(tightestCap([cap('week', 10, 1000), cap('day', 150, 200)])?.period).toBe('day');
    expect(tightestCap([])).toBeUndefined();
  });
});
