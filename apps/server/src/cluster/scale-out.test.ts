import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/test-app.js';

const REDIS_URL = process.env.TEST_REDIS_URL || undefined;

/*
 * Two instances on one database and one Redis behave as one installation: the email-code
 * cooldown and the per-IP limits are shared. With the in-process store each instance
 * would keep its own, and these tests would fail.
 */
describe.skipIf(!REDIS_URL)('two instances sharing Redis', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const config = { redisUrl: REDIS_URL, redisPrefix: `test-${crypto.randomUUID()}:`, rateLimitScale: 1 };
    a = await createTestApp({ config });
    b = await a.sibling();
  });
  afterAll(async () => {
    await b.app.close();
    await a.close();
  });

  it('share the 60 s email-code cooldown', async () => {
    const user = await a.registerUser();
    expect((await a.post('/api/auth/send-email-code', { email: user.email })).status).toBe(200);
    const second = await b.post('/api/auth/send-email-code', { email: user.email });
    expect(second.status).toBe(429);
    expect(second.body.error).toBe('CODE_TOO_FREQUENT');
  });

  it('share the per-IP request limit', async () => {
    const call = (t: TestApp) => t.post('/api/auth/check-email', { email: `x${crypto.randomUUID()}@test.local` });
    // 120 checks a minute per address, split over both instances.
    const results = await Promise.all(Array.from({ length: 120 }, (_, i) => call(i % 2 ? a : b)));
    expect(results.filter((r) => r.status === 429)).toHaveLength(0);
    expect((await call(a)).status).toBe(429);
    expect((await call(b)).status).toBe(429);
  });

  it('report Redis in readiness', async () => {
    const ready = await a.get<never>('/api/ready');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text)).toMatchObject({ database: true, cache: true });
  });
});
