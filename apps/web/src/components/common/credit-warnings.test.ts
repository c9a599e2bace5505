import { CREDITS_EXPIRY_WARNING_DAYS } from '@aiplatform/contracts';
import { describe, expect, it } from 'vitest';
import { creditWarnings, isExpiringSoon } from './credit-warnings';

const healthy = {
  is_expired: false,
  remaining_days: null,
  credits_remaining: 900,
  low_credits_threshold: 100,
  is_low: false,
};

describe('creditWarnings', () => {
  it('has nothing to say about healthy credits, or before they are known', () => {
    expect(creditWarnings(healthy)).toEqual([]);
    expect(creditWarnings(undefined)).toEqual([]);
    expect(creditWarnings(null)).toEqual([]);
  });

  it('warns of a low balance with the balance and the threshold', () => {
    expect(creditWarnings({ ...healthy, credits_remaining: 40, is_low: true })).toEqual([
      { kind: 'low', days: null, remaining: 40, threshold: 100 },
    ]);
  });

  it('warns of an expiry within the warning period, the last day included', () => {
    const last = { ...healthy, remaining_days: CREDITS_EXPIRY_WARNING_DAYS };
    expect(creditWarnings(last).map((w) => [w.kind, w.days])).toEqual([['expiring', CREDITS_EXPIRY_WARNING_DAYS]]);
    expect(creditWarnings({ ...healthy, remaining_days: 0 }).map((w) => w.days)).toEqual([0]);
    expect(creditWarnings({ ...healthy, remaining_days: CREDITS_EXPIRY_WARNING_DAYS + 1 })).toEqual([]);
  });

  it('gives both expiring and low, the expiry first', () => {
    const both = { ...healthy, remaining_days: 2, credits_remaining: 5, is_low: true };
    expect(creditWarnings(both).map((w) => w.kind)).toEqual(['expiring', 'low']);
  });

  it('says only "expired" once the credits have expired, whatever the balance', () => {
    const expired = { ...healthy, is_expired: true, remaining_days: 0, credits_remaining: 3, is_low: true };
    expect(creditWarnings(expired)).toEqual([{ kind: 'expired', days: null, remaining: 3, threshold: 100 }]);
  });
});

describe('isExpiringSoon', () => {
  it('is false for credits that never expire or already did', () => {
    expect(isExpiringSoon(healthy)).toBe(false);
    expect(isExpiringSoon({ ...healthy, is_expired: true, remaining_days: 0 })).toBe(false);
    expect(isExpiringSoon({ ...healthy, remaining_days: 3 })).toBe(true);
  });
});
