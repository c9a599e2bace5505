import type { AdminApiKey, ApiKey, CreatedApiKey } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSession, auditRowsAfter, auditHeadSeq, createUserAsAdmin } from '../../../test/admin-helpers.js';
import { createApiKeyForTest, grantApiKeys } from '../../../test/api-key-helpers.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { hashSecret } from './api-key-secrets.js';

describe('personal API keys: own keys and the administrators’ list', () => {
  let t: TestApp;
  let superToken: string;
  beforeAll(async () => {
    t = await createTestApp();
    superToken = (await t.loginAsAdmin()).accessToken;
  });
  afterAll(() => t.close());

  const del = (url: string, token: string) => t.request('DELETE', url, { token });

  it('refuses a user without api.keys (403) and lets one holding it make, list and revoke keys', async () => {
    const { session } = await t.signUp();
    const token = session.accessToken;
    expect((await t.get('/api/keys', token)).status).toBe(403);
    expect((await t.post('/api/keys', { name: 'x' }, token)).status).toBe(403);

    await grantApiKeys(t, session.user.id);
    const created = await t.post<CreatedApiKey>(
      '/api/keys',
      { name: 'laptop', models: ['gpt-x'], credit_limit: 500, period: 'month', ip_allow: ['10.0.0.0/8'], rpm: 30 },
      token,
    );
    expect(created.status).toBe(201);
    const { key, secret } = created.body.data;
    expect(secret).toMatch(/^sk-[A-Za-z0-9_-]{43}$/);
    expect(key).toMatchObject({
      name: 'laptop',
      models: ['gpt-x'],
      credit_limit: 500,
      period: 'month',
      spent_in_period: 0,
      ip_allow: ['10.0.0.0/8'],
      rpm: 30,
      last_used_at: null,
      revoked_at: null,
    });
    expect(secret.startsWith(key.prefix)).toBe(true);
    expect(key.prefix.length).toBeLessThan(secret.length / 2);

    // Only the hash is stored: the secret appears in no column.
    const row = await t.db.selectFrom('api_keys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(hashSecret(secret));
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(JSON.stringify(row)).not.toContain(secret.slice(12));

    const list = await t.get<ApiKey[]>('/api/keys', token);
    expect(list.body.data.map((k) => k.id)).toEqual([key.id]);
    expect(list.text).not.toContain(secret);

    expect((await del(`/api/keys/${key.id}`, token)).status).toBe(200);
    const after = (await t.get<ApiKey[]>('/api/keys', token)).body.data[0];
    expect(after?.revoked_at).not.toBeNull();
    // Revoked already: no live key by that id.
    expect((await del(`/api/keys/${key.id}`, token)).status).toBe(404);
  });

  it('validates the body: CIDRs, a limit with its period, an expiry in the future', async () => {
    const { session } = await t.signUp();
    await grantApiKeys(t, session.user.id);
    const post = (body: unknown) => t.post('/api/keys', body, session.accessToken, 'en-US');
    const bad = await post({ name: 'k', ip_allow: ['10.0.0.0/33'] });
    expect(bad.status).toBe(400);
    expect(bad.body.data.errors?.join()).toContain('CIDR');
    expect((await post({ name: 'k', credit_limit: 10 })).status).toBe(400);
    expect((await post({ name: 'k', period: 'day' })).status).toBe(400);
    expect((await post({ name: '' })).status).toBe(400);
    expect((await post({ name: 'k', rpm: 0 })).status).toBe(400);
    expect((await post({ name: 'k', expires_at: '2000-01-01T00:00:00Z' })).status).toBe(400);
    const ok = await post({ name: 'k', ip_allow: ['2001:db8::/32', '192.0.2.7'], expires_at: '2999-01-01T00:00:00Z' });
    expect(ok.status).toBe(201);
  });

  it('hides other users’ keys: revoking one is 404 and it stays live', async () => {
    const a = await t.signUp();
    const b = await t.signUp();
    await grantApiKeys(t, a.session.user.id);
    await grantApiKeys(t, b.session.user.id);
    const bKey = await createApiKeyForTest(t, b.session.user.id);
    expect((await del(`/api/keys/${bKey.id}`, a.session.accessToken)).status).toBe(404);
    expect((await t.get<ApiKey[]>('/api/keys', a.session.accessToken)).body.data).toEqual([]);
    const row = await t.db.selectFrom('api_keys').select('revoked_at').where('id', '=', bKey.id).executeTakeFirst();
    expect(row?.revoked_at).toBeNull();
  });

  it('grants api.keys through the group: every member holds it, others do not', async () => {
    const group = await t.post<{ id: number }>('/api/admin/user-groups', { name: `keys-${Date.now()}` }, superToken);
    const member = await createUserAsAdmin(t, superToken, { group_id: group.body.data.id });
    const outsider = await t.signUp();
    const memberToken = (await t.tokensFor(member.email, member.password)).accessToken;
    expect((await t.get('/api/keys', memberToken)).status).toBe(403);
    await t.db
      .insertInto('group_permissions')
      .values({ group_id: group.body.data.id, permission: 'api.keys', created_at: new Date().toISOString() })
      .execute();
    await t.sessionCache.changed();
    expect((await t.get('/api/keys', memberToken)).status).toBe(200);
    expect((await t.get('/api/keys', outsider.session.accessToken)).status).toBe(403);
    const me = await t.get<{ permissions: string[] }>('/api/auth/me', memberToken);
    expect(me.body.data.permissions).toContain('api.keys');
  });

  it('lets administrators list and revoke within their reach, audited; beyond it the key is not found', async () => {
    const groupA = (await t.post<{ id: number }>('/api/admin/user-groups', { name: `ga-${Date.now()}` }, superToken))
      .body.data.id;
    const groupB = (await t.post<{ id: number }>('/api/admin/user-groups', { name: `gb-${Date.now()}` }, superToken))
      .body.data.id;
    const inA = await createUserAsAdmin(t, superToken, { group_id: groupA });
    const inB = await createUserAsAdmin(t, superToken, { group_id: groupB });
    const keyA = await createApiKeyForTest(t, inA.id, { name: 'alpha-key' });
    const keyB = await createApiKeyForTest(t, inB.id, { name: 'beta-key' });
    const groupAdmin = await adminSession(t, superToken, { group_id: groupA });

    const all = await t.get<AdminApiKey[]>(`/api/admin/api-keys?search=a-key&limit=100`, superToken);
    expect(all.status).toBe(200);
    expect(all.body.data.map((k) => k.id)).toEqual(expect.arrayContaining([keyA.id, keyB.id]));
    expect(all.body.data.find((k) => k.id === keyA.id)).toMatchObject({ user_id: inA.id, username: inA.username });
    expect(all.body.pagination?.total).toBeGreaterThanOrEqual(2);
    const byUser = await t.get<AdminApiKey[]>(`/api/admin/api-keys?user_id=${inB.id}`, superToken);
    expect(byUser.body.data.map((k) => k.id)).toEqual([keyB.id]);

    const scoped = await t.get<AdminApiKey[]>('/api/admin/api-keys?limit=100', groupAdmin.token);
    expect(scoped.body.data.map((k) => k.id)).toEqual([keyA.id]);
    expect((await del(`/api/admin/api-keys/${keyB.id}`, groupAdmin.token)).status).toBe(404);

    const seq = await auditHeadSeq(t);
    expect((await del(`/api/admin/api-keys/${keyA.id}`, groupAdmin.token)).status).toBe(200);
    const audit = await auditRowsAfter(t, seq);
    expect(audit.map((r) => [r.action, r.target_type, r.target_id])).toEqual([
      ['api_key.revoke', 'api_key', String(keyA.id)],
    ]);
    expect((await del(`/api/admin/api-keys/${keyA.id}`, groupAdmin.token)).status).toBe(404);

    // A plain user has no part of the administrators' list.
    const plain = await t.signUp();
    expect((await t.get('/api/admin/api-keys', plain.session.accessToken)).status).toBe(403);
  });

  it('revokes every key of an account when it is disabled or retired', async () => {
    const u1 = await createUserAsAdmin(t, superToken);
    const u2 = await createUserAsAdmin(t, superToken);
    const u3 = await createUserAsAdmin(t, superToken);
    const k1 = await createApiKeyForTest(t, u1.id);
    const k2 = await createApiKeyForTest(t, u2.id);
    const k3 = await createApiKeyForTest(t, u3.id);
    expect((await t.put(`/api/admin/users/${u1.id}/status`, { status: 'inactive' }, superToken)).status).toBe(200);
    expect((await del(`/api/admin/users/${u2.id}`, superToken)).status).toBe(200);
    expect((await t.post('/api/admin/users/bulk', { action: 'disable', ids: [u3.id] }, superToken)).status).toBe(200);
    const rows = await t.db
      .selectFrom('api_keys')
      .select(['id', 'revoked_at'])
      .where('id', 'in', [k1.id, k2.id, k3.id])
      .execute();
    expect(rows.every((r) => r.revoked_at !== null)).toBe(true);
  });
});
