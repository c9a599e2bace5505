import type { IdentityProvider, SignInProvider } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSession, auditHeadSeq, auditRowsAfter, createGroupAsAdmin } from '../../../test/admin-helpers.js';
import { type TestApp, createTestApp, unique } from '../../../test/test-app.js';

const CLIENT_SECRET = 'oidc-client-TOPSECRET-0123456789';
const BIND_PASSWORD = 'ldap-bind-TOPSECRET-9876543210';
const BASE = '/api/admin/identity-providers';

const slug = () =>
  `p-${unique()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')}`;
const oidcBody = (overrides: Record<string, unknown> = {}) => ({
  type: 'oidc',
  slug: slug(),
  name: 'Corporate sign-in',
  config: { issuer: 'https://login.example.com', client_id: 'aiplatform', client_secret: CLIENT_SECRET },
  ...overrides,
});

describe('identity providers (administration)', () => {
  let t: TestApp;
  let superToken: string;

  beforeAll(async () => {
    t = await createTestApp();
    superToken = (await t.loginAsAdmin()).accessToken;
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates, reads, changes and deletes a provider without ever answering its secret', async () => {
    const created = await t.post<IdentityProvider>(BASE, oidcBody(), superToken);
    expect(created.status, created.text).toBe(201);
    expect(created.text).not.toContain(CLIENT_SECRET);
    const provider = created.body.data;
    expect(provider.type === 'oidc' && provider.config.has_client_secret).toBe(true);
    expect(provider.mapping.email_claim).toBe('email');
    expect(provider.config).toMatchObject({ scopes: ['openid', 'email', 'profile'] });

    // Sealed at rest: the stored row does not hold the secret in clear either.
    const row = await t.db
      .selectFrom('identity_providers')
      .selectAll()
      .where('id', '=', provider.id)
      .executeTakeFirstOrThrow();
    expect(row.config).not.toContain(CLIENT_SECRET);
    await expect(t.identity.providers.byId(provider.id)).resolves.toMatchObject({
      config: { client_secret: CLIENT_SECRET },
    });

    // An update without the secret keeps it.
    const renamed = await t.put<IdentityProvider>(
      `${BASE}/${provider.id}`,
      { type: 'oidc', name: 'Renamed', config: { issuer: 'https://login.example.com', client_id: 'other' } },
      superToken,
    );
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.data).toMatchObject({
      name: 'Renamed',
      config: { client_id: 'other', has_client_secret: true },
    });
    expect((await t.identity.providers.byId(provider.id))?.config).toMatchObject({ client_secret: CLIENT_SECRET });

    const list = await t.get<IdentityProvider[]>(BASE, superToken);
    expect(list.body.data.map((p) => p.id)).toContain(provider.id);
    expect(list.text).not.toContain(CLIENT_SECRET);
    const one = await t.get<IdentityProvider>(`${BASE}/${provider.id}`, superToken);
    expect(one.body.data.name).toBe('Renamed');

    // null removes the secret.
    const cleared = await t.put<IdentityProvider>(
      `${BASE}/${provider.id}`,
      { type: 'oidc', config: { issuer: 'https://login.example.com', client_id: 'other', client_secret: null } },
      superToken,
    );
    expect(cleared.body.data).toMatchObject({ config: { has_client_secret: false } });

    const deleted = await t.request('DELETE', `${BASE}/${provider.id}`, { token: superToken });
    expect(deleted.status).toBe(200);
    expect((await t.get(`${BASE}/${provider.id}`, superToken)).status).toBe(404);
  });

  it('keeps LDAP bind passwords out of answers and audit rows', async () => {
    const seq = await auditHeadSeq(t);
    const body = {
      type: 'ldap',
      slug: slug(),
      name: 'Directory',
      config: {
        url: 'ldap://127.0.0.1:1389',
        bind_dn: 'cn=reader',
        bind_password: BIND_PASSWORD,
        user_base: 'ou=people',
      },
    };
    const created = await t.post<IdentityProvider>(BASE, body, superToken);
    expect(created.status, created.text).toBe(201);
    expect(created.text).not.toContain(BIND_PASSWORD);
    expect(created.body.data.config).toMatchObject({
      has_bind_password: true,
      user_filter: '(|(uid={login})(mail={login}))',
    });
    const changed = await t.put(
      `${BASE}/${created.body.data.id}`,
      { type: 'ldap', config: { ...body.config, bind_password: `${BIND_PASSWORD}-2` } },
      superToken,
    );
    expect(changed.status, changed.text).toBe(200);
    const rows = await auditRowsAfter(t, seq);
    expect(rows.map((r) => r.action)).toEqual(['identity_provider.create', 'identity_provider.update']);
    for (const r of rows) expect(r.raw).not.toContain(BIND_PASSWORD);
    expect(rows[1]!.changes.after).toMatchObject({ credential_replaced: true });
  });

  it('refuses a duplicate slug, a changed type, an unknown group and a super administrator role mapping', async () => {
    const first = await t.post<IdentityProvider>(BASE, oidcBody(), superToken);
    const again = await t.post(BASE, oidcBody({ slug: first.body.data.slug }), superToken);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('CONFLICT_PROVIDER_SLUG');
    const retype = await t.put(`${BASE}/${first.body.data.id}`, { type: 'saml' }, superToken);
    expect(retype.status).toBe(400);
    const badGroup = await t.post(BASE, oidcBody({ default_group_id: 999_999 }), superToken);
    expect(badGroup.status).toBe(400);
    const superRole = await t.post(
      BASE,
      oidcBody({ mapping: { role_map: [{ value: 'admins', role: 'super_admin' }] } }),
      superToken,
    );
    expect(superRole.status).toBe(400);
    for (const bad of ['UPPER', 'a_b', '-x', 'a--b', '']) {
      expect((await t.post(BASE, oidcBody({ slug: bad }), superToken)).status, bad).toBe(400);
    }
  });

  it('answers 401 without a session and 403 to every administrator but a super administrator', async () => {
    const group = await createGroupAsAdmin(t, superToken);
    const groupAdmin = await adminSession(t, superToken, { group_id: group.id });
    const powerful = await adminSession(t, superToken, {
      extra_permissions: ['user.manage', 'settings.manage', 'model.manage', 'group.manage'],
    });
    const created = await t.post<IdentityProvider>(BASE, oidcBody(), superToken);
    const id = created.body.data.id;
    for (const token of [undefined, groupAdmin.token, powerful.token]) {
      const expected = token ? 403 : 401;
      expect((await t.get(BASE, token)).status).toBe(expected);
      expect((await t.get(`${BASE}/${id}`, token)).status).toBe(expected);
      expect((await t.post(BASE, oidcBody(), token)).status).toBe(expected);
      expect((await t.put(`${BASE}/${id}`, { type: 'oidc', name: 'x' }, token)).status).toBe(expected);
      expect((await t.request('DELETE', `${BASE}/${id}`, { token })).status).toBe(expected);
      expect((await t.post(`${BASE}/${id}/test`, undefined, token)).status).toBe(expected);
    }
    expect((await t.get<IdentityProvider>(`${BASE}/${id}`, superToken)).body.data.name).toBe('Corporate sign-in');
  });

  it('lists only enabled providers publicly, with nothing of their configuration', async () => {
    const on = await t.post<IdentityProvider>(BASE, oidcBody({ name: 'On' }), superToken);
    const off = await t.post<IdentityProvider>(BASE, oidcBody({ name: 'Off', enabled: false }), superToken);
    const res = await t.get<SignInProvider[]>('/api/auth/providers');
    expect(res.status).toBe(200);
    const slugs = res.body.data.map((p) => p.slug);
    expect(slugs).toContain(on.body.data.slug);
    expect(slugs).not.toContain(off.body.data.slug);
    expect(res.body.data.find((p) => p.slug === on.body.data.slug)).toEqual({
      slug: on.body.data.slug,
      name: 'On',
      type: 'oidc',
    });
    expect(res.text).not.toContain('issuer');
  });

  it('tells every listener of the change bus when a provider changes', async () => {
    let heard = 0;
    const stop = t.identity.onProvidersChanged(() => heard++);
    const created = await t.post<IdentityProvider>(BASE, oidcBody(), superToken);
    await t.put(`${BASE}/${created.body.data.id}`, { type: 'oidc', enabled: false }, superToken);
    stop();
    expect(heard).toBe(2);
  });
});
