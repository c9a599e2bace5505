import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { pruneAuthData } from './auth-housekeeping.js';

describe('auth housekeeping', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('deletes old login attempts, long-expired codes and expired refresh tokens, and keeps live ones', async () => {
    const u = await t.registerUser();
    const session = await t.tokensFor(u.email, u.password);
    const now = new Date('2030-01-01T00:00:00.000Z');
    const old = '2029-12-01T00:00:00.000Z';
    await t.db
      .insertInto('login_attempts')
      .values([
        { account_key: 'old', ip: '1.1.1.1', succeeded: 0, created_at: old },
        { account_key: 'new', ip: '1.1.1.1', succeeded: 0, created_at: '2029-12-31T23:50:00.000Z' },
      ])
      .execute();
    await t.db
      .insertInto('email_codes')
      .values([
        { email: 'a@x.io', code_hash: 'h', expires_at: old, attempts: 0, consumed_at: null, created_at: old },
        {
          email: 'b@x.io',
          code_hash: 'h',
          expires_at: '2030-01-01T00:03:00.000Z',
          attempts: 0,
          consumed_at: null,
          created_at: old,
        },
      ])
      .execute();

    await pruneAuthData(t.db, now);

    const attempts = await t.db
      .selectFrom('login_attempts')
      .select('account_key')
      .where('ip', '=', '1.1.1.1')
      .execute();
    expect(attempts.map((a) => a.account_key)).toEqual(['new']);
    const codes = await t.db
      .selectFrom('email_codes')
      .select('email')
      .where('email', 'in', ['a@x.io', 'b@x.io'])
      .execute();
    expect(codes.map((c) => c.email)).toEqual(['b@x.io']);
    // Refresh tokens issued today expire in 30 days: on 2030-01-01 they are long gone.
    expect((await t.post('/api/auth/refresh', { refreshToken: session.refreshToken })).status).toBe(401);
    const left = await t.db.selectFrom('refresh_tokens').select('id').execute();
    expect(left).toHaveLength(0);
  });
});
