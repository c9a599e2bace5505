import { LIMITS } from '@aiplatform/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FrozenClock } from '../../../test/frozen-clock.js';
import { type TestApp, createTestApp, unique } from '../../../test/test-app.js';
import { loginDelaySeconds } from './login-throttle.js';

const LOGIN = '/api/auth/login';
const SEND_CODE = '/api/auth/send-email-code';
const BY_CODE = '/api/auth/login-by-code';
const TRIPLE = '/api/auth/login-by-email-password';

/** Addresses outside the default trusted networks (loopback), from the documentation ranges. */
const STRANGER = '203.0.113.66';
const OWNER = '198.51.100.7';
const address = (i: number) => `192.0.2.${i + 1}`;

describe('loginDelaySeconds', () => {
  it('is 0 below the limit, then doubles from 1 s up to the cap', () => {
    expect([0, 4, 5, 6, 7, 8].map((n) => loginDelaySeconds(n, 5))).toEqual([0, 0, 1, 2, 4, 8]);
    expect(loginDelaySeconds(5 + 20, 5)).toBe(LIMITS.loginDelayMaxSeconds);
    expect(loginDelaySeconds(1e6, 5)).toBe(LIMITS.loginDelayMaxSeconds);
  });
});

describe('sign-in failures per account and address', () => {
  let t: TestApp;
  beforeEach(async () => {
    // Scale 1: the configured limits, not the relaxed test ones.
    t = await createTestApp({ config: { rateLimitScale: 1 }, clock: new FrozenClock() });
  });
  afterEach(async () => {
    await t.close();
  });

  const login = (account: string, password: string, from: string, lang?: string) =>
    t.request('POST', LOGIN, { body: { account, password }, remoteAddress: from, lang });

  /** Sets the per-account limit as an administrator would (the admin signs in from loopback). */
  async function setMaxAttempts(n: number) {
    const admin = await t.loginAsAdmin();
    const res = await t.put('/api/admin/settings', { security: { max_login_attempts: n } }, admin.accessToken);
    expect(res.status, res.text).toBe(200);
    // Later failures must come after that success to count.
    t.clock.advance(1);
  }

  it("a stranger's 20 wrong passwords from one address do not keep the owner out from another", async () => {
    const owner = await t.registerUser();
    const tries = [];
    for (let i = 0; i < 20; i += 1) tries.push(await login(owner.email, `guess-${i}`, STRANGER));
    expect(tries.filter((r) => r.body.error === 'INVALID_CREDENTIALS')).toHaveLength(5);
    expect(tries.filter((r) => r.body.error === 'LOGIN_DELAYED')).toHaveLength(15);

    const res = await login(owner.email, owner.password, OWNER);
    expect(res.status, res.text).toBe(200);
    // The stranger's address is still held back, the right password included.
    expect((await login(owner.email, owner.password, STRANGER)).body.error).toBe('LOGIN_DELAYED');
  });

  it('makes each further try from the address wait twice as long as the one before', async () => {
    const u = await t.registerUser();
    for (let i = 0; i < 5; i += 1) expect((await login(u.email, 'wrong-pass', STRANGER)).status).toBe(401);
    for (const seconds of [1, 2, 4, 8]) {
      const early = await login(u.email, u.password, STRANGER, 'en-US');
      expect(early.body.error).toBe('LOGIN_DELAYED');
      expect(early.body.data).toEqual({ retryAfter: seconds });
      t.clock.advance(seconds * 1000 - 1);
      expect((await login(u.email, u.password, STRANGER)).body.data).toEqual({ retryAfter: 1 });
      t.clock.advance(1);
      // Once the wait is over the try is checked (and fails again, doubling the next wait).
      expect((await login(u.email, 'wrong-pass', STRANGER)).body.error).toBe('INVALID_CREDENTIALS');
    }
  });

  it('blocks an address after ten times the limit over all accounts, except a trusted one', async () => {
    await setMaxAttempts(1);
    const victim = await t.registerUser();
    for (let i = 0; i < 10; i += 1) {
      expect((await login(`nobody_${unique()}`, 'x-x-x-x', STRANGER)).body.error).toBe('INVALID_CREDENTIALS');
    }
    const blocked = await login(victim.email, victim.password, STRANGER, 'en-US');
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toBe('TOO_MANY_LOGIN_ATTEMPTS');
    expect(blocked.body.message).toBe('Too many failed sign-ins; try again in 15 minutes');
    expect((await login(victim.email, victim.password, OWNER)).status).toBe(200);

    for (let i = 0; i < 11; i += 1) await login(`nobody_${unique()}`, 'x-x-x-x', '127.0.0.1');
    expect((await login(victim.email, victim.password, '127.0.0.1')).status).toBe(200);
  });

  describe('an account guessed at from many addresses', () => {
    /** Twenty addresses, one failure each: twenty times the limit of 1, so the next try is one too many. */
    async function guessFromEverywhere(account: string) {
      await setMaxAttempts(1);
      for (let i = 0; i < LIMITS.loginAccountLockFactor; i += 1) {
        expect((await login(account, `guess-${i}`, address(i))).body.error).toBe('INVALID_CREDENTIALS');
      }
    }

    it('has its password sign-in paused, told alike whether the account exists', async () => {
      const u = await t.registerUser();
      const ghost = `ghost_${unique()}`;
      await guessFromEverywhere(u.username);
      await guessFromEverywhere(ghost);
      const paused = await login(u.username, u.password, OWNER, 'en-US');
      expect(paused.status).toBe(429);
      expect(paused.body.error).toBe('PASSWORD_LOGIN_LOCKED');
      expect(paused.body.message).toMatch(/sign in with a code sent by email/);
      const forGhost = await login(ghost, 'whatever', OWNER, 'en-US');
      expect(forGhost.body).toMatchObject({ error: paused.body.error, message: paused.body.message });
      // Still paused once the failures have left the window: only a code opens it.
      t.clock.advance(LIMITS.loginAttemptWindowSeconds * 1000 + 1000);
      expect((await login(u.username, u.password, OWNER)).body.error).toBe('PASSWORD_LOGIN_LOCKED');
    });

    it('is opened again by signing in with an emailed code', async () => {
      const u = await t.registerUser();
      await guessFromEverywhere(u.email);
      expect((await login(u.email, u.password, OWNER)).body.error).toBe('PASSWORD_LOGIN_LOCKED');

      expect((await t.request('POST', SEND_CODE, { body: { email: u.email }, remoteAddress: OWNER })).status).toBe(200);
      const code = await t.mail.waitForCode(u.email);
      const byCode = await t.request('POST', BY_CODE, { body: { email: u.email, code }, remoteAddress: OWNER });
      expect(byCode.status, byCode.text).toBe(200);
      expect((await login(u.email, u.password, OWNER)).status).toBe(200);
    });

    it('takes password + code only with the code checked first, so a wrong code tells nothing of the password', async () => {
      const u = await t.registerUser();
      await guessFromEverywhere(u.email);
      const body = (password: string) => ({ email: u.email, password, code: '000000' });
      const right = await t.request('POST', TRIPLE, { body: body(u.password), remoteAddress: OWNER });
      const wrong = await t.request('POST', TRIPLE, { body: body('wrong-pass'), remoteAddress: STRANGER });
      expect(right.status).toBe(400);
      expect(right.body.error).toBe(wrong.body.error);
    });

    it('never keeps the super administrator out from a trusted address (pair delays still apply)', async () => {
      await guessFromEverywhere(t.admin.email);
      expect((await login(t.admin.email, t.admin.password, OWNER)).body.error).toBe('PASSWORD_LOGIN_LOCKED');
      expect((await login(t.admin.email, t.admin.password, '127.0.0.1')).status).toBe(200);
      expect((await login(t.admin.email, t.admin.password, '::1')).status).toBe(200);

      // From the trusted address itself, wrong passwords are delayed like anywhere else.
      t.clock.advance(1);
      expect((await login(t.admin.email, 'wrong-pass', '127.0.0.1')).body.error).toBe('INVALID_CREDENTIALS');
      expect((await login(t.admin.email, t.admin.password, '127.0.0.1')).body.error).toBe('LOGIN_DELAYED');
    });
  });

  it('trusts the networks of TRUSTED_NETWORKS instead of loopback', async () => {
    const app = await createTestApp({
      config: { rateLimitScale: 1, trustedNetworks: ['10.20.0.0/16'] },
      clock: new FrozenClock(),
    });
    try {
      const admin = (await app.loginAsAdmin()).accessToken;
      await app.put('/api/admin/settings', { security: { max_login_attempts: 1 } }, admin);
      app.clock.advance(1);
      const from = (ip: string) =>
        app.request('POST', LOGIN, {
          body: { account: app.admin.email, password: app.admin.password },
          remoteAddress: ip,
        });
      for (let i = 0; i < LIMITS.loginAccountLockFactor; i += 1) {
        const res = await app.request('POST', LOGIN, {
          body: { account: app.admin.email, password: 'wrong-pass' },
          remoteAddress: address(i),
        });
        expect(res.body.error).toBe('INVALID_CREDENTIALS');
      }
      expect((await from('127.0.0.1')).body.error).toBe('PASSWORD_LOGIN_LOCKED');
      expect((await from('10.20.3.4')).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
