import { afterEach, describe, expect, it, vi } from 'vitest';
import { AccessTokens } from './tokens.js';

const input = { userId: 7, email: 'a@example.com', role: 'user' as const, sid: 'session-1' };
const at = (iso: string) => new Date(iso);

describe('access tokens', () => {
  afterEach(() => vi.restoreAllMocks());

  it('checks a signature once per process, and expiry on every use', async () => {
    const tokens = new AccessTokens('secret');
    const token = await tokens.sign(input, '15m', at('2026-01-01T00:00:00Z'));
    const verify = vi.spyOn(globalThis.crypto.subtle, 'verify');
    expect((await tokens.verify(token, at('2026-01-01T00:01:00Z'))).sid).toBe('session-1');
    expect((await tokens.verify(token, at('2026-01-01T00:02:00Z'))).userId).toBe(7);
    expect(verify).toHaveBeenCalledTimes(1);
    await expect(tokens.verify(token, at('2026-01-01T00:15:00Z'))).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' });
  });

  it('a token altered after a genuine one was checked is still refused', async () => {
    const tokens = new AccessTokens('secret');
    const token = await tokens.sign(input, '15m', at('2026-01-01T00:00:00Z'));
    await tokens.verify(token, at('2026-01-01T00:01:00Z'));
    const last = token.at(-2) === 'A' ? 'B' : 'A';
    const altered = `${token.slice(0, -2)}${last}${token.slice(-1)}`;
    await expect(tokens.verify(altered, at('2026-01-01T00:01:00Z'))).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    const forged = await new AccessTokens('other secret').sign(input, '15m', at('2026-01-01T00:00:00Z'));
    await expect(tokens.verify(forged, at('2026-01-01T00:01:00Z'))).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
