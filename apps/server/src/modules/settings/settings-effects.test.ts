import type { LoginResult, NonStreamAnswer, PublicSystemConfig } from '@aiplatform/contracts';
import { validationEnUS } from '@aiplatform/contracts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGroupAsAdmin } from '../../../test/admin-helpers.js';
import { createChatApp, createConversation } from '../../../test/chat-helpers.js';
import { FrozenClock } from '../../../test/frozen-clock.js';
import { type TestApp, createTestApp, unique } from '../../../test/test-app.js';
import { ACTIVITY_WRITE_INTERVAL_MS } from '../auth/session-activity.js';

/*
 * Every setting that changes what the server does, changed through PUT /admin/settings
 * (so the saved value also reaches the cached copy) and then observed where it applies.
 */

const SETTINGS = '/api/admin/settings';
const en = validationEnUS as unknown as Record<string, Record<string, string>>;
const MINUTE = 60_000;

function registration(overrides: Record<string, unknown> = {}) {
  const suffix = unique();
  return {
    email: `reg_${suffix}@example.com`,
    username: `r_${suffix}`,
    phone: null,
    password: 'secret123',
    confirmPassword: 'secret123',
    ...overrides,
  };
}

function jwtLifetime(token: string): number {
  const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
    iat: number;
    exp: number;
  };
  return claims.exp - claims.iat;
}

describe('settings that take effect', () => {
  let t: TestApp;
  let admin: string;
  /** Signs in afresh each time: the tests move the clock past token lifetimes and idle limits. */
  const save = async (body: Record<string, unknown>) => {
    const res = await t.put(SETTINGS, body, (await t.loginAsAdmin()).accessToken);
    if (res.status !== 200) throw new Error(`saving settings failed: ${res.status} ${res.text}`);
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.loginAsAdmin()).accessToken;
  });
  afterAll(async () => {
    await t.close();
  });

  it('user.allow_register: closed registration is refused and announced publicly', async () => {
    await save({ user: { allow_register: false } });
    const res = await t.post('/api/auth/register', registration());
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('REGISTRATION_CLOSED');
    expect((await t.get<PublicSystemConfig>('/api/public/system-config')).body.data.user.allow_register).toBe(false);
    await save({ user: { allow_register: true } });
    expect((await t.post('/api/auth/register', registration())).status).toBe(201);
  });

  it('user.default_credits, default_tokens and default_group_id: what a new account starts with', async () => {
    const group = await createGroupAsAdmin(t, admin);
    await save({ user: { default_credits: 321, default_tokens: 654, default_group_id: group.id } });
    const { session } = await t.signUp();
    expect(session.user.credits_stats.quota).toBe(321);
    expect(session.user.token_quota).toBe(654);
    expect(session.user.group_id).toBe(group.id);
    await save({ user: { default_credits: 1000, default_tokens: 10000, default_group_id: 1 } });
  });

  describe('user.email_verification', () => {
    afterEach(async () => {
      await save({ user: { email_verification: false, allow_register: true } });
    });

    it('requires an emailed code to register while it is on', async () => {
      await save({ user: { email_verification: true } });
      expect((await t.get<PublicSystemConfig>('/api/public/system-config')).body.data.user.email_verification).toBe(
        true,
      );
      const body = registration();
      const missing = await t.post('/api/auth/register', body, undefined, 'en-US');
      expect(missing.status).toBe(400);
      expect(missing.body.data.errors).toEqual([en.code?.required]);

      const sent = await t.post('/api/auth/send-email-code', { email: body.email, purpose: 'register' });
      expect(sent.status).toBe(200);
      const mail = await t.mail.nextMailTo(body.email);
      expect(mail.code).toMatch(/^\d{6}$/);
      const wrong = mail.code === '000000' ? '111111' : '000000';
      const refused = await t.post('/api/auth/register', { ...body, code: wrong });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('CODE_INVALID');
      const created = await t.post<{ id: number }>('/api/auth/register', { ...body, code: mail.code });
      expect(created.status).toBe(201);
      // Spent: the same code cannot register another account.
      const again = await t.post('/api/auth/register', { ...registration(), email: body.email, code: mail.code });
      expect(again.status).toBeGreaterThanOrEqual(400);
      expect((await t.tokensFor(body.email, body.password)).user.id).toBe(created.body.data.id);
    });

    it('sends sign-up codes only to unregistered addresses, and only while it is on', async () => {
      const off = await t.post('/api/auth/send-email-code', {
        email: `new_${unique()}@example.com`,
        purpose: 'register',
      });
      expect(off.status).toBe(403);
      await save({ user: { email_verification: true } });
      const taken = await t.registerUser().catch(() => undefined);
      expect(taken).toBeUndefined(); // registration itself now needs a code
      const existing = await t.post('/api/auth/send-email-code', { email: t.admin.email, purpose: 'register' });
      expect(existing.status).toBe(409);
      expect(existing.body.error).toBe('CONFLICT_EMAIL');
      await save({ user: { allow_register: false } });
      const closed = await t.post('/api/auth/send-email-code', {
        email: `new_${unique()}@example.com`,
        purpose: 'register',
      });
      expect(closed.status).toBe(403);
      expect(closed.body.error).toBe('REGISTRATION_CLOSED');
    });

    it('is not needed while it is off', async () => {
      expect((await t.post('/api/auth/register', registration())).status).toBe(201);
    });
  });

  it('security.token_expires_in: the lifetime of new access tokens', async () => {
    await save({ security: { token_expires_in: '30m' } });
    const login = await t.loginAsAdmin();
    expect(login.expiresIn).toBe('30m');
    expect(jwtLifetime(login.accessToken)).toBe(30 * 60);
    t.clock.advance(31 * MINUTE);
    const expired = await t.get('/api/auth/me', login.accessToken);
    expect(expired.status).toBe(401);
    expect(expired.body.error).toBe('TOKEN_EXPIRED');
    await save({ security: { token_expires_in: '12h' } });
  });

  describe('security.session_timeout_minutes', () => {
    afterEach(async () => {
      await save({ security: { session_timeout_minutes: 0 } });
    });

    const me = (token: string) => t.get('/api/auth/me', token);
    const lastSeen = async (login: LoginResult) => {
      const sid = (
        JSON.parse(Buffer.from(login.accessToken.split('.')[1] ?? '', 'base64url').toString()) as {
          sid: string;
        }
      ).sid;
      return t.db.selectFrom('auth_sessions').selectAll().where('id', '=', sid).executeTakeFirstOrThrow();
    };

    it('ends a session idle for longer than the timeout, for its refresh token too', async () => {
      await save({ security: { session_timeout_minutes: 10 } });
      const { creds } = await t.signUp();
      const login = await t.tokensFor(creds.email, creds.password);
      // Active every few minutes: the session lives on well past ten minutes in total.
      for (let i = 0; i < 4; i += 1) {
        t.clock.advance(6 * MINUTE);
        expect((await me(login.accessToken)).status).toBe(200);
      }
      t.clock.advance(11 * MINUTE);
      const idle = await me(login.accessToken);
      expect(idle.status).toBe(401);
      expect(idle.body.error).toBe('UNAUTHORIZED');
      expect((await lastSeen(login)).revoked_at).not.toBeNull();
      const refresh = await t.post('/api/auth/refresh', { refreshToken: login.refreshToken });
      expect(refresh.status).toBe(401);
      expect(refresh.body.error).toBe('REFRESH_TOKEN_INVALID');
    });

    it('refuses to refresh a session that went idle while its access token was unused', async () => {
      await save({ security: { session_timeout_minutes: 5 } });
      const { creds } = await t.signUp();
      const login = await t.tokensFor(creds.email, creds.password);
      t.clock.advance(6 * MINUTE);
      const refresh = await t.post('/api/auth/refresh', { refreshToken: login.refreshToken });
      expect(refresh.status).toBe(401);
      expect((await me(login.accessToken)).status).toBe(401);
    });

    it('records activity at most once a minute', async () => {
      await save({ security: { session_timeout_minutes: 10 } });
      const { creds } = await t.signUp();
      const login = await t.tokensFor(creds.email, creds.password);
      const start = (await lastSeen(login)).last_used_at;
      t.clock.advance(10_000);
      await me(login.accessToken);
      await me(login.accessToken);
      expect((await lastSeen(login)).last_used_at).toBe(start);
      t.clock.advance(ACTIVITY_WRITE_INTERVAL_MS);
      await me(login.accessToken);
      const touched = (await lastSeen(login)).last_used_at;
      expect(touched > start).toBe(true);
      await me(login.accessToken);
      expect((await lastSeen(login)).last_used_at).toBe(touched);
    });

    it('applies no idle limit at 0', async () => {
      const { creds } = await t.signUp();
      const login = await t.tokensFor(creds.email, creds.password);
      t.clock.advance(11 * 60 * MINUTE);
      expect((await me(login.accessToken)).status).toBe(200);
    });
  });
});

describe('settings that take effect with the real limits', () => {
  let t: TestApp;
  let admin: string;
  beforeEach(async () => {
    // Scale 1: the limits are the configured ones, not the relaxed test ones. The clock stands
    // still: a 1 s sign-in wait must not run out while a busy machine answers.
    t = await createTestApp({ config: { rateLimitScale: 1 }, clock: new FrozenClock() });
    admin = (await t.loginAsAdmin()).accessToken;
  });
  afterEach(async () => {
    await t.close();
  });

  it('security.max_login_attempts: after that many failures from one address, further tries wait', async () => {
    expect((await t.put(SETTINGS, { security: { max_login_attempts: 2 } }, admin)).status).toBe(200);
    const user = await t.registerUser();
    for (let i = 0; i < 2; i += 1) {
      const res = await t.post('/api/auth/login', { account: user.email, password: 'wrong-password' });
      expect(res.body.error).toBe('INVALID_CREDENTIALS');
    }
    const locked = await t.post('/api/auth/login', { account: user.email, password: user.password });
    expect(locked.status).toBe(429);
    expect(locked.body.error).toBe('LOGIN_DELAYED');
  });

  it('security.rate_limit_enabled: the per-address request limits can be switched off and on', async () => {
    const check = () => t.post('/api/auth/check-email', { email: `x_${unique()}@example.com` });
    expect((await t.put(SETTINGS, { security: { rate_limit_enabled: false } }, admin)).status).toBe(200);
    const free = await Promise.all(Array.from({ length: 130 }, check));
    expect(free.filter((r) => r.status === 429)).toHaveLength(0);
    expect((await t.put(SETTINGS, { security: { rate_limit_enabled: true } }, admin)).status).toBe(200);
    const limited = await Promise.all(Array.from({ length: 130 }, check));
    expect(limited.filter((r) => r.status === 429).length).toBeGreaterThan(0);
  });
});

describe('credit settings that take effect', () => {
  let t: TestApp;
  let admin: string;
  const url = (id: string) => `/api/chat/conversations/${id}/messages`;
  beforeAll(async () => {
    ({ t } = await createChatApp());
    admin = (await t.loginAsAdmin()).accessToken;
  });
  afterAll(async () => {
    await t.close();
  });

  it('credits.enabled: chats are free while it is off', async () => {
    const { session } = await t.signUp();
    const conv = await createConversation(t, session.accessToken);
    expect((await t.put(SETTINGS, { credits: { enabled: false } }, admin)).status).toBe(200);
    const free = await t.post<NonStreamAnswer>(url(conv.id), { content: 'free', stream: false }, session.accessToken);
    expect(free.status).toBe(200);
    expect(free.body.data.credits_info.credits_consumed).toBe(0);
    expect((await t.userRow(session.user.id)).credits_used).toBe(0);
    expect((await t.put(SETTINGS, { credits: { enabled: true } }, admin)).status).toBe(200);
    const paid = await t.post<NonStreamAnswer>(url(conv.id), { content: 'paid', stream: false }, session.accessToken);
    expect(paid.body.data.credits_info.credits_consumed).toBeGreaterThan(0);
  });

  it('credits.min_credits_for_chat: a chat needs at least that balance', async () => {
    const { session } = await t.signUp();
    const conv = await createConversation(t, session.accessToken);
    expect((await t.put(SETTINGS, { credits: { min_credits_for_chat: 5000 } }, admin)).status).toBe(200);
    const res = await t.post(url(conv.id), { content: 'min', stream: false }, session.accessToken);
    expect(res.status).toBe(402);
    expect(res.body.error).toBe('INSUFFICIENT_CREDITS');
    expect(res.body.data).toMatchObject({ required: 5000 });
    expect((await t.put(SETTINGS, { credits: { min_credits_for_chat: 0 } }, admin)).status).toBe(200);
    expect((await t.post(url(conv.id), { content: 'ok', stream: false }, session.accessToken)).status).toBe(200);
  });
});
