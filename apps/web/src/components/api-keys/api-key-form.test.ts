import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { EMPTY_API_KEY_FORM, apiKeyBodyOf, apiKeyStatus, parseNetworks, v1BaseUrl } from './api-key-form';

describe('the API key form', () => {
  it('reads networks separated by lines, commas and spaces, each once', () => {
    expect(parseNetworks(' 10.0.0.0/8\n192.0.2.7, 2001:db8::/32  10.0.0.0/8\n\n')).toEqual([
      '10.0.0.0/8',
      '192.0.2.7',
      '2001:db8::/32',
    ]);
    expect(parseNetworks('  \n ')).toEqual([]);
  });

  it('sends a limit only with its period, and neither without a period', () => {
    const base = { ...EMPTY_API_KEY_FORM, name: '  laptop ' };
    expect(apiKeyBodyOf(base)).toEqual({
      name: 'laptop',
      models: [],
      credit_limit: null,
      period: null,
      expires_at: null,
      ip_allow: [],
      rpm: null,
    });
    expect(apiKeyBodyOf({ ...base, period: 'week', credit_limit: 500 })).toMatchObject({
      credit_limit: 500,
      period: 'week',
    });
    // A limit typed and the period set back to none: no limit at all, rather than a refusal.
    expect(apiKeyBodyOf({ ...base, period: 'none', credit_limit: 500 })).toMatchObject({
      credit_limit: null,
      period: null,
    });
    expect(apiKeyBodyOf({ ...base, period: 'day', credit_limit: null })).toMatchObject({
      credit_limit: null,
      period: null,
    });
  });

  it('lets the key work to the end of the chosen day', () => {
    const day = dayjs('2031-03-04T09:30:00');
    const body = apiKeyBodyOf({ ...EMPTY_API_KEY_FORM, name: 'k', expires_on: day });
    expect(body.expires_at).toBe(dayjs('2031-03-04T23:59:59.999').toDate().toISOString());
  });

  it('tells active, expired and revoked keys apart', () => {
    const now = new Date('2030-01-01T00:00:00Z');
    expect(apiKeyStatus({ revoked_at: null, expires_at: null }, now)).toBe('active');
    expect(apiKeyStatus({ revoked_at: null, expires_at: '2030-01-02T00:00:00Z' }, now)).toBe('active');
    expect(apiKeyStatus({ revoked_at: null, expires_at: '2030-01-01T00:00:00Z' }, now)).toBe('expired');
    expect(apiKeyStatus({ revoked_at: '2029-12-01T00:00:00Z', expires_at: '2029-01-01T00:00:00Z' }, now)).toBe(
      'revoked',
    );
  });

  it('gives the base URL at the site root', () => {
    expect(v1BaseUrl('https://chat.example.com')).toBe('https://chat.example.com/v1');
    expect(v1BaseUrl('https://chat.example.com/')).toBe('https://chat.example.com/v1');
  });
});
