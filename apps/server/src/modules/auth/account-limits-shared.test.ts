import crypto from 'node:crypto';
import { LIMITS } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../../test/test-app.js';

const REDIS_URL = process.env.TEST_REDIS_URL || undefined;

/*
 * Two instances on one database and one Redis count an account's failures together: the
 * pause of password sign-in and the wrong current passwords live in the shared store. With
 * the in-process store each instance would keep its own, and these tests would fail.
 */
describe.skipIf(!REDIS_URL)('account limits shared by two instances through Redis', () => {
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

  it('a pause of password sign-in set on one instance holds on the other', async () => {
    const admin = await a.loginAsAdmin();
    await a.put('/api/admin/settings', { security: { max_login_attempts: 1 } }, admin.accessToken);
    try {
      const u = await a.registerUser();
      a.clock.advance(1000);
      const login = (t: TestApp, password: string, from: string) =>
        t.request('POST', '/api/auth/login', { body: { account: u.email, password }, remoteAddress: from });
      for (let i = 0; i < LIMITS.loginAccountLockFactor; i += 1) {
        expect((await login(a, 'wrong-pass', `192.0.2.${i + 1}`)).body.error).toBe('INVALID_CREDENTIALS');
      }
      expect((await login(a, u.password, '198.51.100.7')).body.error).toBe('PASSWORD_LOGIN_LOCKED');
      // Once the failures have left the window only the shared pause still refuses.
      a.clock.advance(LIMITS.loginAttemptWindowSeconds * 1000 + 1000);
      expect((await login(b, u.password, '198.51.100.8')).body.error).toBe('PASSWORD_LOGIN_LOCKED');
    } finally {
      await a.put('/api/admin/settings', { security: { max_login_attempts: 5 } }, admin.accessToken);
    }
  });

  it('wrong current passwords are counted over both instances', async () => {
    const { creds, session } = await a.signUp();
    const change = (t: TestApp, oldPassword: string) =>
      t.put(
        '/api/auth/password',
        { oldPassword, newPassword: 'brand-new-1', confirmPassword: 'brand-new-1' },
        session.accessToken,
      );
    for (let i = 0; i < LIMITS.passwordChangeMaxFailures; i += 1) {
      expect((await change(i % 2 ? a : b, 'guess')).body.error).toBe('OLD_PASSWORD_WRONG');
    }
    expect((await change(a, creds.password)).body.error).toBe('TOO_MANY_PASSWORD_ATTEMPTS');
    expect((await change(b, creds.password)).body.error).toBe('TOO_MANY_PASSWORD_ATTEMPTS');
  });
});
