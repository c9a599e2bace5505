import { describe, expect, it } from 'vitest';
import { checkCredits, creditsPerChat } from './credit-check';

describe('creditsPerChat', () => {
  it('uses the model price, or 10 when the model has none', () => {
    expect(creditsPerChat({ credits_per_chat: 25 })).toBe(25);
    expect(creditsPerChat({ credits_per_chat: 0 })).toBe(0);
    expect(creditsPerChat({})).toBe(10);
    expect(creditsPerChat({ credits_per_chat: null })).toBe(10);
    expect(creditsPerChat(undefined)).toBe(10);
  });
});

describe('checkCredits', () => {
  const model = { credits_per_chat: 20 };

  it('passes when the balance covers the price exactly or more', () => {
    expect(checkCredits({ remaining: 20 }, model)).toEqual({ ok: true, required: 20, balance: 20 });
    expect(checkCredits({ remaining: 500, isExpired: false }, model).ok).toBe(true);
  });

  it('fails with required and balance when the balance is short', () => {
    expect(checkCredits({ remaining: 19 }, model)).toEqual({
      ok: false,
      reason: 'insufficient',
      required: 20,
      balance: 19,
    });
    expect(checkCredits({ remaining: 9 }, null)).toMatchObject({ ok: false, required: 10, balance: 9 });
  });

  it('treats an unknown balance as insufficient', () => {
    expect(checkCredits(null, model)).toEqual({ ok: false, reason: 'unknown', required: 20, balance: null });
    expect(checkCredits(undefined, model).ok).toBe(false);
    expect(checkCredits({ remaining: Number.NaN }, model).ok).toBe(false);
  });

  it('refuses expired credits', () => {
    expect(checkCredits({ remaining: 1000, isExpired: true }, model)).toMatchObject({ ok: false, reason: 'expired' });
  });

  it('lets a free model through on a zero balance', () => {
    expect(checkCredits({ remaining: 0 }, { credits_per_chat: 0 }).ok).toBe(true);
  });
});
