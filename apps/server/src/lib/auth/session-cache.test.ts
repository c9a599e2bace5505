import crypto from 'node:crypto';
import type { LoginResult } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAsAdmin } from '../../../test/admin-helpers.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { SESSION_CACHE_MS } from './session-cache.js';

const REDIS_URL = process.env.TEST_REDIS_URL || undefined;
const ME = '/api/auth/me';
const MINUTE = 60_000;
const userUrl = (id: number) => `/api/admin/users/${id}`;

/**
 * Every way a session ends must refuse the next request, although the session was just
 * checked (and so cached): on the same instance the very next request; on another instance
 * (with Redis) the next request once the revocation's announcement has arrived, which takes a
 * Redis round trip (the test polls for up to a second; a request sent through any network to
 * another instance takes longer than that announcement).
 * `a` makes the change, `b` answers the next request (the same app on one instance).
 */
function revocations(
  setup: () => Promise<{ a: TestApp; b: TestApp; close(): Promise<void> }>,
  arrival: 'at once' | 'with the announcement',
) {
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void> = async () => undefined;
  let admin: string;
  beforeAll(async () => {
    const built = await setup();
    ({ a, b } = built);
    close = () => built.close();
    admin = (await a.loginAsAdmin()).accessToken;
  });
  afterAll(async () => close());

  /** The status of `b`'s answer to a request made after the revocation. */
  const after = async (request: () => Promise<{ status: number }>): Promise<number> => {
    let status = (await request()).status;
    const deadline = Date.now() + 1_000;
    while (arrival === 'with the announcement' && status === 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      status = (await request()).status;
    }
    return status;
  };

  /** A fresh user signed in, whose session both instances have just checked. */
  const warmSession = async (): Promise<{ id: number; email: string; password: string; login: LoginResult }> => {
    const u = await createUserAsAdmin(a, admin);
    const login = await a.tokensFor(u.email, u.password);
    expect((await a.get(ME, login.accessToken)).status).toBe(200);
    expect((await b.get(ME, login.accessToken)).status).toBe(200);
    return { ...u, login };
  };

  it('logout', async () => {
    const u = await warmSession();
    expect((await a.post('/api/auth/logout', undefined, u.login.accessToken)).status).toBe(200);
    expect(await after(() => b.get(ME, u.login.accessToken))).toBe(401);
  });

  it('password change ends the other sessions', async () => {
    const u = await warmSession();
    const other = await a.tokensFor(u.email, u.password);
    expect((await b.get(ME, other.accessToken)).status).toBe(200);
    const change = {
      oldPassword: u.password,
      newPassword: 'changed-password-1',
      confirmPassword: 'changed-password-1',
    };
    expect((await a.put('/api/auth/password', change, u.login.accessToken)).status).toBe(200);
    expect(await after(() => b.get(ME, other.accessToken))).toBe(401);
    expect((await b.get(ME, u.login.accessToken)).status).toBe(200);
  });

  it('an administrator disabling the account', async () => {
    const u = await warmSession();
    expect((await a.put(`${userUrl(u.id)}/status`, { status: 'inactive' }, admin)).status).toBe(200);
    expect([401, 403]).toContain(await after(() => b.get(ME, u.login.accessToken)));
  });

  it('an administrator resetting the password (ends every session)', async () => {
    const u = await warmSession();
    expect((await a.put(`${userUrl(u.id)}/password`, { newPassword: 'brandnew456' }, admin)).status).toBe(200);
    expect(await after(() => b.get(ME, u.login.accessToken))).toBe(401);
  });

  it('an administrator retiring the account', async () => {
    const u = await warmSession();
    expect((await a.request('DELETE', userUrl(u.id), { token: admin })).status).toBe(200);
    expect(await after(() => b.get(ME, u.login.accessToken))).toBe(401);
  });

  it('an administrator taking a role away', async () => {
    const u = await createUserAsAdmin(a, admin, { role: 'admin' });
    const login = await a.tokensFor(u.email, u.password);
    expect((await b.get('/api/admin/users', login.accessToken)).status).toBe(200);
    expect((await a.put(userUrl(u.id), { role: 'user' }, admin)).status).toBe(200);
    expect(await after(() => b.get('/api/admin/users', login.accessToken))).toBe(403);
  });

  it('the session timeout', async () => {
    const u = await warmSession();
    await a.setSetting('security', { ...(await a.settings.getSettings()).security, session_timeout_minutes: 10 });
    try {
      a.clock.advance(11 * MINUTE);
      expect(await after(() => b.get(ME, u.login.accessToken))).toBe(401);
      expect((await a.get(ME, u.login.accessToken)).status).toBe(401);
    } finally {
      await a.setSetting('security', { ...(await a.settings.getSettings()).security, session_timeout_minutes: 0 });
    }
  });
}

describe('session cache: revocations apply at once on one instance', () => {
  revocations(async () => {
    const a = await createTestApp();
    return { a, b: a, close: () => a.close() };
  }, 'at once');
});

describe.skipIf(!REDIS_URL)('session cache: revocations reach another instance sharing Redis', () => {
  revocations(async () => {
    const a = await createTestApp({ config: { redisUrl: REDIS_URL, redisPrefix: `test-${crypto.randomUUID()}:` } });
    const b = await a.sibling();
    return {
      a,
      b,
      close: async () => {
        await b.app.close();
        await a.close();
      },
    };
  }, 'with the announcement');
});

describe('session cache', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('serves a checked session for a few seconds without reading it, then reads it again', async () => {
    const { creds, session } = await t.signUp();
    expect((await t.get(ME, session.accessToken)).status).toBe(200);
    // Written behind the product's back (no change event): only the cache's own bound applies.
    await t.db.updateTable('users').set({ status: 'inactive' }).where('id', '=', creds.id).execute();
    expect((await t.get('/api/chat/conversations', session.accessToken)).status).toBe(200);
    t.clock.advance(SESSION_CACHE_MS + 1);
    expect((await t.get('/api/chat/conversations', session.accessToken)).status).toBe(403);
  });

  it('/auth/me answers the stored profile, not the cached row', async () => {
    const { session } = await t.signUp();
    expect((await t.get(ME, session.accessToken)).status).toBe(200);
    const username = `n_${crypto.randomBytes(4).toString('hex')}`;
    expect((await t.put('/api/auth/profile', { username }, session.accessToken)).status).toBe(200);
    const me = await t.get<{ user: { username: string } }>(ME, session.accessToken);
    expect(me.body.data.user.username).toBe(username);
  });

  it('does not end a session as idle on a cached last-seen time older than the stored one', async () => {
    await t.setSetting('security', { ...(await t.settings.getSettings()).security, session_timeout_minutes: 1 });
    try {
      const { session } = await t.signUp();
      const sid = (
        JSON.parse(Buffer.from(session.accessToken.split('.')[1] ?? '', 'base64url').toString()) as {
          sid: string;
        }
      ).sid;
      // 58 s after sign-in: neither idle nor old enough to be written; the cache keeps "seen at sign-in".
      t.clock.advance(58_000);
      expect((await t.get(ME, session.accessToken)).status).toBe(200);
      // Another instance sees the session now (the stored time moves, this cache does not hear of it).
      await t.db
        .updateTable('auth_sessions')
        .set({ last_used_at: t.clock.now().toISOString() })
        .where('id', '=', sid)
        .execute();
      // 61 s after sign-in, within the cache bound: idle by the cached time, not by the stored one.
      t.clock.advance(3_000);
      expect((await t.get(ME, session.accessToken)).status).toBe(200);
    } finally {
      await t.setSetting('security', { ...(await t.settings.getSettings()).security, session_timeout_minutes: 0 });
    }
  });
});
