import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/test-app.js';

describe('per-IP request limits', () => {
  let t: TestApp;
  beforeEach(async () => {
    // Scale 1: the real limits, 30 auth calls per minute and address.
    t = await createTestApp({ config: { rateLimitScale: 1 } });
  });
  afterEach(async () => {
    await t.close();
  });

  const refreshTimes = (n: number) =>
    Promise.all(Array.from({ length: n }, () => t.post('/api/auth/refresh', { refreshToken: 'unknown-token' })));

  it('answers 429 TOO_MANY_REQUESTS with the envelope after 30 auth calls in a minute', async () => {
    const allowed = await refreshTimes(30);
    expect(allowed.map((r) => r.status)).toEqual(Array(30).fill(401));
    const limited = await t.post('/api/auth/refresh', { refreshToken: 'unknown-token' }, undefined, 'en-US');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ success: false, code: 429, error: 'TOO_MANY_REQUESTS' });
    expect(limited.body.message).toBe('Requests too frequent, please try again later');
    expect(limited.body.requestId).toBeTruthy();
    // Unlimited calls are not affected.
    expect((await t.get('/api/public/system-config')).status).toBe(200);
  });

  it('can be switched off in the security settings', async () => {
    await t.setSetting('security', { rate_limit_enabled: false });
    const results = await refreshTimes(35);
    expect(results.filter((r) => r.status === 429)).toHaveLength(0);
  });
});
