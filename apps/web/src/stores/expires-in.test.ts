import { describe, expect, it } from 'vitest';
import { DEFAULT_TOKEN_LIFETIME_MS, isTokenExpired, parseExpiresIn } from './expires-in';

describe('parseExpiresIn', () => {
  it.each([
    ['45s', 45_000],
    ['30m', 1_800_000],
    ['12h', 43_200_000],
    ['7d', 604_800_000],
    ['1h', 3_600_000],
  ])('parses %s', (input, expected) => {
    expect(parseExpiresIn(input)).toBe(expected);
  });

  it.each(['', '12', 'h', '12 h', '1.5h', '-1h', '12w', '12H', 'abc', '12hours'])(
    'falls back to 12 hours for %j',
    (input) => {
      expect(parseExpiresIn(input)).toBe(DEFAULT_TOKEN_LIFETIME_MS);
      expect(DEFAULT_TOKEN_LIFETIME_MS).toBe(12 * 3_600_000);
    },
  );

  it('falls back for non-strings', () => {
    expect(parseExpiresIn(undefined)).toBe(DEFAULT_TOKEN_LIFETIME_MS);
    expect(parseExpiresIn(3600)).toBe(DEFAULT_TOKEN_LIFETIME_MS);
  });
});

describe('isTokenExpired', () => {
  it('compares the recorded expiry with now', () => {
    expect(isTokenExpired(1000, 999)).toBe(false);
    expect(isTokenExpired(1000, 1000)).toBe(true);
    expect(isTokenExpired(1000, 2000)).toBe(true);
    expect(isTokenExpired(null, 2000)).toBe(false);
  });
});
