import type { LoginResult } from '@aiplatform/contracts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FrozenClock } from '../../../test/frozen-clock.js';
import { type Credentials, type TestApp, createTestApp, unique } from '../../../test/test-app.js';

const LOGIN = '/api/auth/login';

function claimsOf(token: string): Record<string, unknown> {
  const part = token.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
}

describe('POST /api/auth/login', () => {
  let t: TestApp;
  let alice: Credentials;
  beforeAll(async () => {
    t = await createTestApp();
    alice = await t.registerUser({ username: `Alice_${unique()}`, phone: '13912345678', password: 'alice-pass' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('signs in by email and answers user, permissions, siteConfig and tokens', async () => {
    const res = await t.post<LoginResult>(LOGIN, { account: alice.email, password: alice.password });
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.user).toMatchObject({
      id: alice.id,
      email: alice.email,
      username: alice.username,
      role: 'user',
      status: 'active',
    });
    expect(d.user).not.toHaveProperty('password_hash');
    expect(res.text).not.toContain('argon2');
    expect(d.permissions).toEqual(['chat.use', 'file.upload']);
    expect(d.siteConfig).toMatchObject({ is_group_config: false });
    expect(d.expiresIn).toBe('12h');
    expect(d.refreshToken.length).toBeGreaterThanOrEqual(32);
    const me = await t.get(`/api/auth/me`, d.accessToken);
    expect(me.status).toBe(200);
  });

  it('puts userId, email, role, iat, exp and jti in the access token, valid for 12 hours', async () => {
    const { accessToken } = await t.tokensFor(alice.email, alice.password);
    const claims = claimsOf(accessToken);
    expect(claims).toMatchObject({ userId: alice.id, email: alice.email, role: 'user' });
    expect(typeof claims.jti).toBe('string');
    expect(Number(claims.exp) - Number(claims.iat)).toBe(12 * 3600);
  });

  it('signs in by username, case-insensitively', async () => {
    for (const account of [alice.username, alice.username.toUpperCase()]) {
      const res = await t.post<LoginResult>(LOGIN, { account, password: alice.password });
      expect(res.status, account).toBe(200);
      expect(res.body.data.user.id).toBe(alice.id);
    }
  });

  it('signs in by mainland phone number', async () => {
    const res = await t.post<LoginResult>(LOGIN, { account: '13912345678', password: alice.password });
    expect(res.status).toBe(200);
    expect(res.body.data.user.id).toBe(alice.id);
  });

  it('signs in by email in any letter case and with surrounding spaces', async () => {
    const res = await t.post<LoginResult>(LOGIN, {
      account: `  ${alice.email.toUpperCase()} `,
      password: alice.password,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.user.id).toBe(alice.id);
  });

  it('records the sign-in time', async () => {
    const before = (await t.userRow(alice.id)).last_login_at;
    t.clock.advance(1000);
    const { user } = await t.tokensFor(alice.email, alice.password);
    expect(user.last_login_at).not.toBe(before);
    expect((await t.userRow(alice.id)).last_login_at).toBe(user.last_login_at);
  });

  it('refuses a wrong password with 401 INVALID_CREDENTIALS', async () => {
    const res = await t.post(LOGIN, { account: alice.email, password: 'wrong-pass' });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, error: 'INVALID_CREDENTIALS', message: '账号或密码错误' });
    expect(res.body).not.toHaveProperty('data.accessToken');
  });

  it('answers an unknown account exactly like a wrong password', async () => {
    for (const account of ['nobody@example.com', 'nobody_here', '13800000000']) {
      const res = await t.post(LOGIN, { account, password: 'whatever' }, undefined, 'en-US');
      expect(res.status, account).toBe(401);
      expect(res.body.error).toBe('INVALID_CREDENTIALS');
      expect(res.body.message).toBe('Wrong account or password');
    }
  });

  it('refuses a disabled account with 403 ACCOUNT_DISABLED, and only with the right password', async () => {
    const bob = await t.registerUser();
    await t.setUserStatus(bob.id, 'inactive');
    const res = await t.post(LOGIN, { account: bob.email, password: bob.password });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ACCOUNT_DISABLED');
    // A wrong password must not reveal that the account exists but is disabled.
    expect((await t.post(LOGIN, { account: bob.email, password: 'nope-nope' })).body.error).toBe('INVALID_CREDENTIALS');
    await t.setUserStatus(bob.id, 'active');
    expect((await t.post(LOGIN, { account: bob.email, password: bob.password })).status).toBe(200);
  });

  it('requires account and password', async () => {
    const res = await t.post(LOGIN, { account: '', password: '' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('VALIDATION_FAILED');
    expect(res.body.data.errors).toEqual(expect.arrayContaining(['请输入账号', '请输入密码']));
  });

  it('is refused with 403 LOGIN_MODE_NOT_ALLOWED in the high-security mode', async () => {
    await t.setSetting('login', { mode: 'email_verify_required' });
    try {
      const res = await t.post(LOGIN, { account: alice.email, password: alice.password });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('LOGIN_MODE_NOT_ALLOWED');
    } finally {
      await t.setSetting('login', { mode: 'standard' });
    }
    expect((await t.post(LOGIN, { account: alice.email, password: alice.password })).status).toBe(200);
  });
});

describe('login attempt limit', () => {
  let t: TestApp;
  // Scale 1: the limit is the real one, 5 failures per account and address in 15 minutes.
  // A fresh app per test keeps the per-IP request limit (30 auth calls a minute) out of the way.
  // The clock stands still: the 1 s wait must not run out while a busy machine answers.
  beforeEach(async () => {
    t = await createTestApp({ config: { rateLimitScale: 1 }, clock: new FrozenClock() });
  });
  afterEach(async () => {
    await t.close();
  });

  const fail = (account: string, times: number) =>
    Promise.all(Array.from({ length: times }, () => t.post(LOGIN, { account, password: 'wrong-password' })));

  it('after 5 failures makes the next try wait, even with the right password, and then lets it in', async () => {
    const u = await t.registerUser();
    const failures = await fail(u.email, 5);
    expect(failures.map((r) => r.body.error)).toEqual(Array(5).fill('INVALID_CREDENTIALS'));

    const delayed = await t.post(LOGIN, { account: u.email, password: u.password }, undefined, 'en-US');
    expect(delayed.status).toBe(429);
    expect(delayed.body.error).toBe('LOGIN_DELAYED');
    expect(delayed.body.message).toBe('Too many failed sign-ins; try again in 1 s');
    expect(delayed.body.data).toEqual({ retryAfter: 1 });
    // The count is per account, not per spelling of it.
    expect((await t.post(LOGIN, { account: u.email.toUpperCase(), password: u.password })).status).toBe(429);

    t.clock.advance(1000);
    expect((await t.post(LOGIN, { account: u.email, password: u.password })).status).toBe(200);
  });

  it('checks at most 5 of many simultaneous wrong passwords', async () => {
    const u = await t.registerUser();
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) => t.post(LOGIN, { account: u.email, password: `wrong-${i}` })),
    );
    const checked = results.filter((r) => r.body.error === 'INVALID_CREDENTIALS').length;
    expect(checked).toBeLessThanOrEqual(5);
    expect(results.filter((r) => r.body.error === 'LOGIN_DELAYED')).toHaveLength(25 - checked);
    // Tries refused by the delay are not failures; the checked ones count toward the 5.
    for (let i = checked; i < 5; i += 1) await fail(u.email, 1);
    expect((await t.post(LOGIN, { account: u.email, password: u.password })).status).toBe(429);
  });

  it('counts failures per account whether it is named by email, username or phone', async () => {
    const u = await t.registerUser({ phone: `139${String(Date.now()).slice(-8)}` });
    await fail(u.username, 2);
    await fail(u.phone ?? '', 2);
    await fail(u.email, 1);
    expect((await t.post(LOGIN, { account: u.username, password: u.password })).status).toBe(429);
  });

  it('does not hold back other accounts', async () => {
    const victim = await t.registerUser();
    const other = await t.registerUser();
    await fail(victim.email, 5);
    expect((await t.post(LOGIN, { account: victim.email, password: victim.password })).status).toBe(429);
    expect((await t.post(LOGIN, { account: other.email, password: other.password })).status).toBe(200);
  });

  it('counts only the failures since the last success', async () => {
    const u = await t.registerUser();
    await fail(u.email, 4);
    expect((await t.post(LOGIN, { account: u.email, password: u.password })).status).toBe(200);
    await fail(u.email, 4);
    expect((await t.post(LOGIN, { account: u.email, password: u.password })).status).toBe(200);
  });

  it('holds back an account name that does not exist exactly like one that does', async () => {
    const u = await t.registerUser();
    const ghost = `ghost_${unique()}`;
    await fail(ghost, 5);
    await fail(u.username, 5);
    const [forGhost, forUser] = await Promise.all(
      [ghost, u.username].map((account) => t.post(LOGIN, { account, password: 'x' }, undefined, 'en-US')),
    );
    expect(forGhost?.status).toBe(429);
    expect(forGhost?.body.error).toBe('LOGIN_DELAYED');
    expect(forGhost?.body.message).toBe(forUser?.body.message);
  });
});
