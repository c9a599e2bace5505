import crypto from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRedis } from '../lib/data/redis-client.js';
import { OwnRedis, canRunOwnRedis } from '../../test/own-redis.js';
import { type Credentials, type TestApp, createTestApp } from '../../test/test-app.js';

/** A call and how long it took, for "answers at once instead of hanging" checks. */
async function timed<T>(call: () => Promise<T>): Promise<{ res: T; ms: number }> {
  const started = performance.now();
  const res = await call();
  return { res, ms: performance.now() - started };
}

/*
 * Redis going away (killed) or hanging (SIGSTOP) must neither fail nor hold requests:
 * limits and cooldowns fall back to this process, readiness says the cache is down, and
 * Redis is used again as soon as it answers, without a restart.
 */
describe.skipIf(!canRunOwnRedis)('a Redis that goes away or hangs', () => {
  let redis: OwnRedis;
  let t: TestApp;
  let probe: Redis;
  let user: Credentials;
  const prefix = `test-${crypto.randomUUID()}:`;

  beforeAll(async () => {
    redis = await OwnRedis.start();
    t = await createTestApp({ config: { redisUrl: redis.url, redisPrefix: prefix, rateLimitScale: 1 } });
    probe = createRedis(redis.url);
    user = await t.registerUser();
  });
  afterAll(async () => {
    probe?.disconnect();
    redis?.resume();
    await t?.close();
    await redis?.kill();
  });

  const login = () => t.post('/api/auth/login', { account: user.email, password: user.password });
  const sendCode = (email: string) => t.post('/api/auth/send-email-code', { email });
  const ready = () => t.get<never>('/api/ready');
  const readyBody = async () => {
    const res = await ready();
    return { http: res.status, ...(JSON.parse(res.text) as { database: boolean; cache: boolean }) };
  };
  /** Keys of this app in Redis under `part` (rate-limit counters, cooldowns). */
  const keysIn = (part: string) => probe.keys(`${prefix}${part}*`);

  it('is used while it runs', async () => {
    expect(await readyBody()).toMatchObject({ http: 200, database: true, cache: true });
    expect((await sendCode(user.email)).status).toBe(200);
    expect(await probe.exists(`${prefix}email-code:${user.email}`)).toBe(1);
    expect(await keysIn('rl:')).not.toHaveLength(0);
  });

  it('killed: sign-in, codes and limits keep working in this process; ready is 503', async () => {
    await redis.kill();
    await vi.waitFor(async () => expect((await ready()).status).toBe(503), { timeout: 5000, interval: 50 });

    const readiness = await timed(readyBody);
    expect(readiness.res).toMatchObject({ http: 503, database: true, cache: false });
    expect(readiness.ms).toBeLessThan(1000);
    expect((await t.get('/api/health')).status).toBe(200);

    const signIn = await timed(login);
    expect(signIn.res.status).toBe(200);
    expect(signIn.ms).toBeLessThan(1000);

    // The per-address cooldown holds in this process.
    const other = await t.registerUser();
    const first = await timed(() => sendCode(other.email));
    expect(first.res.status).toBe(200);
    expect(first.ms).toBeLessThan(1000);
    const again = await sendCode(other.email);
    expect(again.status).toBe(429);
    expect(again.body.error).toBe('CODE_TOO_FREQUENT');

    // So does the per-address request limit (120 checks a minute): counted here, not skipped.
    const check = () => t.post('/api/auth/check-email', { email: `x${crypto.randomUUID()}@example.com` });
    const answers = await Promise.all(Array.from({ length: 120 }, check));
    expect(answers.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
    const over = await check();
    expect(over.status).toBe(429);
    expect(over.body.error).toBe('TOO_MANY_REQUESTS');
  });

  it('back: ready again, and limits and cooldowns are kept in Redis once more', async () => {
    await redis.start();
    await vi.waitFor(async () => expect(await readyBody()).toMatchObject({ http: 200, cache: true }), {
      timeout: 10_000,
      interval: 100,
    });
    // A restarted Redis without persistence starts empty.
    expect(await keysIn('')).toHaveLength(0);
    const another = await t.registerUser();
    expect((await sendCode(another.email)).status).toBe(200);
    expect(await probe.exists(`${prefix}email-code:${another.email}`)).toBe(1);
    expect(await keysIn('rl:')).not.toHaveLength(0);
  });

  it('hung: calls answer within about a second instead of waiting; ready is 503; it recovers', async () => {
    redis.hang();
    const readiness = await timed(readyBody);
    expect(readiness.res).toMatchObject({ http: 503, database: true, cache: false });
    expect(readiness.ms).toBeLessThan(1500);

    const signIn = await timed(login);
    expect(signIn.res.status).toBe(200);
    expect(signIn.ms).toBeLessThan(1500);

    const other = await t.registerUser();
    const code = await timed(() => sendCode(other.email));
    expect(code.res.status).toBe(200);
    expect(code.ms).toBeLessThan(1500);
    expect((await sendCode(other.email)).body.error).toBe('CODE_TOO_FREQUENT');

    redis.resume();
    await vi.waitFor(async () => expect(await readyBody()).toMatchObject({ http: 200, cache: true }), {
      timeout: 10_000,
      interval: 100,
    });
    const last = await t.registerUser();
    expect((await sendCode(last.email)).status).toBe(200);
    expect(await probe.exists(`${prefix}email-code:${last.email}`)).toBe(1);
  });
});
