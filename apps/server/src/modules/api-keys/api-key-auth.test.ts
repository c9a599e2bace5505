import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAsAdmin } from '../../../test/admin-helpers.js';
import { createApiKeyForTest, grantApiKeys, keyHolder } from '../../../test/api-key-helpers.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { ApiKeyRefusal, keyAllowsModel } from './api-key-auth.js';

const REDIS_URL = process.env.TEST_REDIS_URL || undefined;
const bearer = (secret: string) => `Bearer ${secret}`;

/** The refusal `authenticate` throws, as [status, code]. */
async function refusal(t: TestApp, header: string | undefined, ip = '127.0.0.1'): Promise<[number, string]> {
  try {
    await t.apiKeys.auth.authenticate(header, ip);
  } catch (err) {
    if (err instanceof ApiKeyRefusal) return [err.status, err.code];
    throw err;
  }
  throw new Error('the key was accepted');
}

describe('authenticating a request by its API key', () => {
  let t: TestApp;
  let superToken: string;
  beforeAll(async () => {
    t = await createTestApp();
    superToken = (await t.loginAsAdmin()).accessToken;
  });
  afterAll(() => t.close());

  it('accepts a live key and answers its key and user, recording the use once a minute', async () => {
    const k = await keyHolder(t);
    const principal = await t.apiKeys.auth.authenticate(bearer(k.secret), '198.51.100.1');
    expect(principal.key.id).toBe(k.id);
    expect(principal.user.id).toBe(k.userId);
    const used = async () =>
      (await t.db.selectFrom('api_keys').select('last_used_at').where('id', '=', k.id).executeTakeFirstOrThrow())
        .last_used_at;
    const first = await used();
    expect(first).not.toBeNull();
    t.clock.advance(5_000);
    await t.apiKeys.auth.authenticate(bearer(k.secret), '198.51.100.1');
    expect(await used()).toBe(first);
    t.clock.advance(61_000);
    await t.apiKeys.auth.authenticate(bearer(k.secret), '198.51.100.1');
    expect(await used()).not.toBe(first);
  });

  it('refuses missing, malformed and unknown keys with 401 invalid_api_key', async () => {
    expect(await refusal(t, undefined)).toEqual([401, 'invalid_api_key']);
    expect(await refusal(t, 'Basic abc')).toEqual([401, 'invalid_api_key']);
    expect(await refusal(t, 'Bearer not-a-key')).toEqual([401, 'invalid_api_key']);
    expect(await refusal(t, bearer(`sk-${crypto.randomBytes(32).toString('base64url')}`))).toEqual([
      401,
      'invalid_api_key',
    ]);
  });

  it('refuses a revoked key at once, even one just checked', async () => {
    const k = await keyHolder(t);
    await t.apiKeys.auth.authenticate(bearer(k.secret), '127.0.0.1');
    expect((await t.request('DELETE', `/api/keys/${k.id}`, { token: k.accessToken })).status).toBe(200);
    expect(await refusal(t, bearer(k.secret))).toEqual([401, 'invalid_api_key']);
  });

  it('refuses an expired key', async () => {
    const expiresAt = new Date(t.clock.now().getTime() + 60_000).toISOString();
    const k = await keyHolder(t, { expires_at: expiresAt });
    await t.apiKeys.auth.authenticate(bearer(k.secret), '127.0.0.1');
    t.clock.advance(61_000);
    expect(await refusal(t, bearer(k.secret))).toEqual([401, 'invalid_api_key']);
  });

  it('refuses an address outside the key’s networks with 403 ip_not_allowed', async () => {
    const k = await keyHolder(t, { ip_allow: ['203.0.113.0/24', '2001:db8::/32'] });
    await t.apiKeys.auth.authenticate(bearer(k.secret), '203.0.113.9');
    await t.apiKeys.auth.authenticate(bearer(k.secret), '::ffff:203.0.113.10');
    await t.apiKeys.auth.authenticate(bearer(k.secret), '2001:db8::1');
    expect(await refusal(t, bearer(k.secret), '198.51.100.1')).toEqual([403, 'ip_not_allowed']);
  });

  it('refuses the key of a disabled or retired account, and revokes its keys', async () => {
    const disabled = await createUserAsAdmin(t, superToken);
    await grantApiKeys(t, disabled.id);
    const k = await createApiKeyForTest(t, disabled.id);
    await t.apiKeys.auth.authenticate(bearer(k.secret), '127.0.0.1');
    await t.put(`/api/admin/users/${disabled.id}/status`, { status: 'inactive' }, superToken);
    expect(await refusal(t, bearer(k.secret))).toEqual([401, 'invalid_api_key']);
    // Enabling the account again does not bring its keys back.
    await t.put(`/api/admin/users/${disabled.id}/status`, { status: 'active' }, superToken);
    expect(await refusal(t, bearer(k.secret))).toEqual([401, 'invalid_api_key']);

    // A row changed by hand (no revocation): the account's state alone refuses.
    const other = await keyHolder(t);
    await t.apiKeys.auth.authenticate(bearer(other.secret), '127.0.0.1');
    await t.setUserStatus(other.userId, 'inactive');
    expect(await refusal(t, bearer(other.secret))).toEqual([401, 'invalid_api_key']);
  });

  it('refuses with 403 permission_denied once the owner no longer holds api.keys', async () => {
    const k = await keyHolder(t);
    await t.apiKeys.auth.authenticate(bearer(k.secret), '127.0.0.1');
    await t.put(`/api/admin/users/${k.userId}`, { extra_permissions: [] }, superToken);
    expect(await refusal(t, bearer(k.secret))).toEqual([403, 'permission_denied']);
  });

  it('refuses past the key’s requests per minute with 429, and allows again in the next minute', async () => {
    const k = await keyHolder(t, { rpm: 3 });
    for (let i = 0; i < 3; i += 1) await t.apiKeys.auth.authenticate(bearer(k.secret), '127.0.0.1');
    expect(await refusal(t, bearer(k.secret))).toEqual([429, 'rate_limit_exceeded']);
    t.clock.advance(61_000);
    await t.apiKeys.auth.authenticate(bearer(k.secret), '127.0.0.1');
  });

  it('allows a model when the key names none or names it', async () => {
    const any = await keyHolder(t);
    const one = await keyHolder(t, { models: ['m-1'] });
    const [a, o] = await Promise.all([
      t.apiKeys.auth.authenticate(bearer(any.secret), '127.0.0.1'),
      t.apiKeys.auth.authenticate(bearer(one.secret), '127.0.0.1'),
    ]);
    expect(keyAllowsModel(a.key, 'whatever')).toBe(true);
    expect(keyAllowsModel(o.key, 'm-1')).toBe(true);
    expect(keyAllowsModel(o.key, 'm-2')).toBe(false);
  });
});

/*
 * Behind a load balancer the key may be revoked on one instance and used on another that
 * checked it a moment before: the revocation reaches it through Redis at once.
 */
describe.skipIf(!REDIS_URL)('API keys on two instances sharing Redis', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp({ config: { redisUrl: REDIS_URL, redisPrefix: `test-${crypto.randomUUID()}:` } });
    b = await a.sibling();
  });
  afterAll(async () => {
    await b.app.close();
    await a.close();
  });

  it('a key revoked on one instance is refused at once on the other', async () => {
    const k = await keyHolder(a);
    await b.apiKeys.auth.authenticate(bearer(k.secret), '127.0.0.1');
    expect((await a.request('DELETE', `/api/keys/${k.id}`, { token: k.accessToken })).status).toBe(200);
    await expect
      .poll(() => refusal(b, bearer(k.secret)), { timeout: 1000, interval: 20 })
      .toEqual([401, 'invalid_api_key']);
  });

  it('the requests per minute are counted over both instances', async () => {
    const k = await keyHolder(a, { rpm: 2 });
    await a.apiKeys.auth.authenticate(bearer(k.secret), '127.0.0.1');
    await b.apiKeys.auth.authenticate(bearer(k.secret), '127.0.0.1');
    expect(await refusal(a, bearer(k.secret))).toEqual([429, 'rate_limit_exceeded']);
  });
});
