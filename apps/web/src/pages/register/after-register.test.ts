import { describe, expect, it } from 'vitest';
import { loginPrefill, prefilledAccount, signsInRightAfterRegistering } from './after-register';

describe('after registering', () => {
  it('signs in at once only where a password alone signs in', () => {
    expect(signsInRightAfterRegistering('standard')).toBe(true);
    expect(signsInRightAfterRegistering('email_verify_required')).toBe(false);
  });

  it('hands the account to the login page and reads nothing else back', () => {
    expect(prefilledAccount(loginPrefill('new@example.com'))).toBe('new@example.com');
    for (const state of [null, undefined, 'x', {}, { account: 42 }, { other: 'a@b.c' }]) {
      expect(prefilledAccount(state)).toBe('');
    }
    expect(prefilledAccount({ account: 'a'.repeat(1000) })).toHaveLength(254);
  });
});
