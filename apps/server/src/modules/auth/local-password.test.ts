import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAsAdmin } from '../../../test/admin-helpers.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';

describe('login.local_password', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('with super_admin_only refuses everybody else a password sign-in, right password or not', async () => {
    const superToken = (await t.loginAsAdmin()).accessToken;
    const user = await createUserAsAdmin(t, superToken);
    const admin = await createUserAsAdmin(t, superToken, { role: 'admin' });
    expect((await t.post('/api/auth/login', { account: user.email, password: user.password })).status).toBe(200);

    const put = await t.put('/api/admin/settings', { login: { local_password: 'super_admin_only' } }, superToken);
    expect(put.status, put.text).toBe(200);
    const config = await t.get<{ login: { local_password: string } }>('/api/public/system-config');
    expect(config.body.data.login.local_password).toBe('super_admin_only');

    for (const [account, password] of [
      [user.email, user.password],
      [user.username, 'wrong-password'],
      [admin.email, admin.password],
      ['nobody@example.com', 'whatever'],
    ] as const) {
      const res = await t.post('/api/auth/login', { account, password });
      expect(res.status, account).toBe(403);
      expect(res.body.error).toBe('LOCAL_PASSWORD_DISABLED');
    }
    const strict = await t.post('/api/auth/login-by-email-password', {
      email: user.email,
      password: user.password,
      code: '123456',
    });
    expect(strict.body.error).toBe('LOCAL_PASSWORD_DISABLED');

    // Break-glass: the super administrator keeps the password.
    expect((await t.post('/api/auth/login', { account: t.admin.email, password: t.admin.password })).status).toBe(200);

    await t.put('/api/admin/settings', { login: { local_password: 'all' } }, superToken);
    expect((await t.post('/api/auth/login', { account: user.email, password: user.password })).status).toBe(200);
  });

  it('refuses a value outside the two policies', async () => {
    const superToken = (await t.loginAsAdmin()).accessToken;
    const res = await t.put('/api/admin/settings', { login: { local_password: 'nobody' } }, superToken);
    expect(res.status).toBe(400);
  });
});
