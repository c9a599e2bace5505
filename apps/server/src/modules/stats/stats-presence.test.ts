import crypto from 'node:crypto';
import { PRESENCE_WINDOW_SECONDS } from '@aiplatform/contracts';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/chat-helpers.js';
import { realtime } from '../../../test/stats-helpers.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { createRedis } from '../../lib/data/kv-store.js';
import { RedisPresence } from './presence.js';

const REDIS_URL = process.env.TEST_REDIS_URL || undefined;
/** Just past the presence window. */
const WINDOW_PASSED_MS = (PRESENCE_WINDOW_SECONDS + 1) * 1000;

async function signedIn(t: TestApp) {
  const { session } = await t.signUp();
  return { token: session.accessToken, id: session.user.id };
}

/** The site's figures are read by a super administrator (others see their own scope). */
async function siteReader(t: TestApp) {
  const session = await t.loginAsAdmin();
  return { token: session.accessToken, id: session.user.id };
}

const heartbeat = async (t: TestApp, token: string) => {
  const res = await t.post<{ online: boolean }>('/api/stats/heartbeat', undefined, token);
  expect(res.status).toBe(200);
  expect(res.body.data).toEqual({ online: true });
};

/*
 * Reading /stats/realtime is itself a signed-in request: the reader always counts, so
 * "online 2" below is the reader and the user observed.
 */
describe('presence in one process (no Redis)', () => {
  let a: TestApp;
  let b: TestApp;
  let x: { token: string; id: number };
  let reader: { token: string; id: number };
  beforeAll(async () => {
    a = await createTestApp();
    b = await a.sibling();
    x = await signedIn(a);
    reader = await siteReader(a);
  });
  afterAll(async () => {
    await b.app.close();
    await a.close();
  });

  it('counts a user for 90 s after a heartbeat or any signed-in request', async () => {
    // Signing up and in are not signed-in requests: only the reader is online.
    expect((await realtime(a, reader.token)).online_users).toBe(1);
    await heartbeat(a, x.token);
    expect((await realtime(a, reader.token)).online_users).toBe(2);
    a.clock.advance((PRESENCE_WINDOW_SECONDS - 5) * 1000);
    expect((await realtime(a, reader.token)).online_users).toBe(2);
    a.clock.advance(6000);
    expect((await realtime(a, reader.token)).online_users).toBe(1);
    // Any authenticated request counts, not only the heartbeat.
    expect((await a.get('/api/auth/me', x.token)).status).toBe(200);
    expect((await realtime(a, reader.token)).online_users).toBe(2);
    a.clock.advance(WINDOW_PASSED_MS);
    expect((await realtime(a, reader.token)).online_users).toBe(1);
  });

  it('keeps the count per process', async () => {
    a.clock.advance(WINDOW_PASSED_MS);
    await heartbeat(a, x.token);
    expect((await realtime(a, reader.token)).online_users).toBe(2);
    // The other instance saw only the reader.
    expect((await realtime(b, reader.token)).online_users).toBe(1);
  });

  it('refuses the heartbeat and the statistics without a session', async () => {
    expect((await a.post('/api/stats/heartbeat')).status).toBe(401);
    expect((await a.get('/api/stats/realtime')).status).toBe(401);
  });
});

describe.skipIf(!REDIS_URL)('presence shared through Redis', () => {
  let a: TestApp;
  let b: TestApp;
  let redis: Redis;
  let key: string;
  let x: { token: string; id: number };
  let reader: { token: string; id: number };
  beforeAll(async () => {
    const redisPrefix = `test-${crypto.randomUUID()}:`;
    key = `${redisPrefix}presence`;
    a = await createTestApp({ config: { redisUrl: REDIS_URL, redisPrefix } });
    b = await a.sibling();
    redis = createRedis(REDIS_URL!);
    x = await signedIn(a);
    reader = await siteReader(a);
  });
  afterAll(async () => {
    await redis.del(key);
    redis.disconnect();
    await b.app.close();
    await a.close();
  });

  /** Online users as instance `t` counts them, once the writes in flight have landed. */
  const onlineOn = (t: TestApp, expected: number) =>
    eventually(async () => {
      const n = (await realtime(t, reader.token)).online_users;
      return n === expected ? n : undefined;
    }, 2000);
  const scoreOf = async (userId: number) => {
    const s = await redis.zscore(key, String(userId));
    return s === null ? null : Number(s);
  };

  it('counts on one instance a heartbeat sent to the other, until the window has passed', async () => {
    await heartbeat(a, x.token);
    await onlineOn(b, 2);
    a.clock.advance(WINDOW_PASSED_MS);
    expect((await realtime(b, reader.token)).online_users).toBe(1);
    // Counting drops the expired members from the set.
    expect(await scoreOf(x.id)).toBeNull();
  });

  it('counts any signed-in request, writing Redis at most once per user per 10 s on an instance', async () => {
    a.clock.advance(WINDOW_PASSED_MS);
    const t0 = a.clock.now().getTime();
    expect((await a.get('/api/auth/me', x.token)).status).toBe(200);
    await onlineOn(b, 2);
    const first = await scoreOf(x.id);
    expect(first).toBeGreaterThanOrEqual(t0);
    a.clock.advance(RedisPresence.WRITE_EVERY_MS / 2);
    expect((await a.get('/api/auth/me', x.token)).status).toBe(200);
    // Sent to the other instance, which has not written this user yet: a write.
    expect((await b.get('/api/auth/me', x.token)).status).toBe(200);
    const written = await eventually(async () => {
      const s = await scoreOf(x.id);
      return s !== null && s > first! ? s : undefined;
    });
    expect(written).toBeGreaterThanOrEqual(first! + RedisPresence.WRITE_EVERY_MS / 2);
    // Another request on `a` within 10 s of its own write leaves the score as it was.
    expect((await a.get('/api/auth/me', x.token)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    expect(await scoreOf(x.id)).toBe(written);
  });

  it('writes every heartbeat, throttle or not, so an open dashboard keeps its user counted', async () => {
    a.clock.advance(WINDOW_PASSED_MS);
    expect((await a.get('/api/auth/me', x.token)).status).toBe(200);
    await onlineOn(b, 2);
    a.clock.advance(5000);
    await heartbeat(a, x.token);
    // 86 s after the heartbeat, 91 s after the request: counted only because the heartbeat was written.
    a.clock.advance(WINDOW_PASSED_MS - 5000);
    await onlineOn(b, 2);
    a.clock.advance(5000);
    expect((await realtime(b, reader.token)).online_users).toBe(1);
  });
});
