import { afterEach, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/test-app.js';

const TOKEN = 'a-metrics-token-long-enough';

describe('/metrics', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('is refused without the bearer token, or with another one', async () => {
    t = await createTestApp({ config: { metricsToken: TOKEN } });
    const anonymous = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe('Bearer');
    expect(anonymous.body).not.toContain('process_cpu_user_seconds_total');
    for (const authorization of [`Bearer ${TOKEN}x`, `Basic ${TOKEN}`, TOKEN]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization } });
      expect(res.statusCode).toBe(401);
    }
    const scraper = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(scraper.statusCode).toBe(200);
    expect(scraper.body).toContain('process_cpu_user_seconds_total');
  });

  it('does not exist when no token is configured, even for a client sending one', async () => {
    t = await createTestApp();
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('process_cpu_user_seconds_total');
    }
  });
});
