import { describe, expect, it } from 'vitest';
import { REDACTED, redact } from './redact.js';

describe('audit redaction', () => {
  it('hides secrets at any depth', () => {
    const out = redact({
      password: 'a',
      newPassword: 'b',
      api_key: 'c',
      nested: { refresh_token: 'd', accessToken: 'e', password_hash: 'f', client_secret: 'g' },
      list: [{ token: 'h' }],
    });
    expect(JSON.stringify(out)).not.toMatch(/"[a-h]"/);
    expect(out).toMatchObject({ password: REDACTED, nested: { accessToken: REDACTED }, list: [{ token: REDACTED }] });
  });

  it('keeps token counts and lifetimes, which are settings rather than secrets', () => {
    const values = { default_tokens: 10000, token_quota: 5, token_used: 2, token_expires_in: '12h' };
    expect(redact(values)).toEqual(values);
  });
});
