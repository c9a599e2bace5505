import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, type TestApp, createTestApp, unique } from '../../../test/test-app.js';
import { auditRowsAfter, auditHeadSeq, createUserAsAdmin, ledgerRows } from '../../../test/admin-helpers.js';
import { scim, scimToken } from '../../../test/scim-helpers.js';

type ScimUser = {
  id: string;
  userName: string;
  externalId?: string;
  active: boolean;
  emails: { value: string; primary: boolean }[];
  name?: { givenName?: string; familyName?: string };
};
type ScimList = { totalResults: number; startIndex: number; itemsPerPage: number; Resources: ScimUser[] };
type ScimErrorBody = { schemas: string[]; status: string; scimType?: string; detail: string };
const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** The body Entra ID sends to create a user (its documented request shape). */
const entraUser = (suffix: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
  externalId: `ext-${suffix}`,
  userName: `Test_User_${suffix}@contoso.example`,
  active: true,
  emails: [{ primary: true, type: 'work', value: `Test_User_${suffix}@contoso.example` }],
  meta: { resourceType: 'User' },
  name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
  roles: [],
});

/** The body Okta sends to create a user. */
const oktaUser = (suffix: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName: `isaac.${suffix}@example.com`,
  name: { givenName: 'Isaac', familyName: 'Brock' },
  emails: [{ primary: true, value: `isaac.${suffix}@example.com`, type: 'work' }],
  displayName: 'Isaac Brock',
  locale: 'en-US',
  externalId: `00u${suffix}`,
  groups: [],
  active: true,
});

describe('SCIM /Users', () => {
  let t: TestApp;
  let superToken: string;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp();
    superToken = (await t.loginAsAdmin()).accessToken;
    token = (await scimToken(t, superToken)).token;
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates the account Entra ID sends, in the default group with its opening credits, and finds it by userName', async () => {
    const s = unique();
    const seq = await auditHeadSeq(t);
    const res = await scim<ScimUser>(t, 'POST', '/Users', token, entraUser(s));
    expect(res.status, res.text).toBe(201);
    expect(String(res.headers['content-type'])).toContain('application/scim+json');
    expect(res.body).toMatchObject({
      userName: `Test_User_${s}@contoso.example`,
      externalId: `ext-${s}`,
      active: true,
    });
    const id = Number(res.body.id);
    const row = await t.userRow(id);
    expect(row).toMatchObject({ email: `test_user_${s}@contoso.example`, group_id: 1, status: 'active', role: 'user' });
    // Opening credits through the ledger, as every other account gets them.
    expect(row.credits_quota).toBeGreaterThan(0);
    expect((await ledgerRows(t, id)).map((r) => r.transaction_type)).toEqual(['system_reward']);
    // Nobody can sign in locally: the password is random and never shown.
    expect((await t.post('/api/auth/login', { account: row.email, password: '' })).status).not.toBe(200);
    const audit = await auditRowsAfter(t, seq);
    expect(audit.map((a) => [a.action, a.actor_username, a.target_id])).toEqual([
      ['user.create', expect.stringMatching(/^scim:\d+$/), String(id)],
    ]);

    // Entra's lookup: GET /Users?filter=userName eq "…"
    const found = await scim<ScimList>(
      t,
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "Test_User_${s}@contoso.example"`)}`,
      token,
    );
    expect(found.status).toBe(200);
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0]!.id).toBe(String(id));
    const byExternal = await scim<ScimList>(
      t,
      'GET',
      `/Users?filter=${encodeURIComponent(`externalId eq "ext-${s}"`)}`,
      token,
    );
    expect(byExternal.body.Resources.map((r) => r.id)).toEqual([String(id)]);
    const byEmail = await scim<ScimList>(
      t,
      'GET',
      `/Users?filter=${encodeURIComponent(`emails[type eq "work"].value eq "Test_User_${s}@contoso.example"`)}`,
      token,
    );
    expect(byEmail.body.Resources.map((r) => r.id)).toEqual([String(id)]);
    const none = await scim<ScimList>(
      t,
      'GET',
      `/Users?filter=${encodeURIComponent('userName eq "nobody-here"')}`,
      token,
    );
    expect(none.body).toMatchObject({ totalResults: 0, Resources: [] });
  });

  it('refuses a duplicate userName or email with 409 uniqueness', async () => {
    const s = unique();
    expect((await scim(t, 'POST', '/Users', token, oktaUser(s))).status).toBe(201);
    const again = await scim<ScimErrorBody>(t, 'POST', '/Users', token, { ...oktaUser(s), externalId: 'other' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: '409', scimType: 'uniqueness' });
    const local = await createUserAsAdmin(t, superToken);
    const sameEmail = await scim<ScimErrorBody>(t, 'POST', '/Users', token, {
      ...oktaUser(unique()),
      emails: [{ primary: true, value: local.email }],
    });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body.scimType).toBe('uniqueness');
  });

  it("disables the account with Entra's PATCH (capitalised op, string boolean) and ends its session at once", async () => {
    const s = unique();
    const created = await scim<ScimUser>(t, 'POST', '/Users', token, { ...oktaUser(s), userName: `person_${s}` });
    const id = created.body.id;
    // Give the account a password through the admin call, only to open a session to watch.
    expect((await t.put(`/api/admin/users/${id}/password`, { newPassword: 'Secret#123' }, superToken)).status).toBe(
      200,
    );
    const session = await t.tokensFor(`isaac.${s}@example.com`, 'Secret#123');
    expect((await t.get('/api/auth/me', session.accessToken)).status).toBe(200);
    expect((await t.get('/api/modules/wiki/auth-url', session.accessToken)).body.error).toBe('NOT_FOUND');

    const res = await scim<ScimUser>(t, 'PATCH', `/Users/${id}`, token, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.active).toBe(false);
    // The next request with the session's access token is refused.
    expect((await t.get('/api/auth/me', session.accessToken)).body.error).toBe('ACCOUNT_DISABLED');
    // Nor can the session be renewed, nor the person be handed off into a module.
    expect((await t.post('/api/auth/refresh', { refreshToken: session.refreshToken })).body.error).toBe(
      'ACCOUNT_DISABLED',
    );
    expect((await t.get('/api/modules/wiki/auth-url', session.accessToken)).body.error).toBe('ACCOUNT_DISABLED');
    expect((await t.userRow(Number(id))).status).toBe('inactive');
    // Entra reads it back as disabled.
    expect((await scim<ScimUser>(t, 'GET', `/Users/${id}`, token)).body.active).toBe(false);
  });

  it("applies Okta's path-less PATCH and PUT", async () => {
    const s = unique();
    const created = await scim<ScimUser>(t, 'POST', '/Users', token, oktaUser(s));
    const id = created.body.id;
    const off = await scim<ScimUser>(t, 'PATCH', `/Users/${id}`, token, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect(off.body.active).toBe(false);
    expect((await t.userRow(Number(id))).status).toBe('inactive');

    // A PUT that does not mention `active` leaves the account as it is.
    const { active: _left, ...withoutActive } = oktaUser(s);
    expect((await scim<ScimUser>(t, 'PUT', `/Users/${id}`, token, withoutActive)).body.active).toBe(false);

    const put = await scim<ScimUser>(t, 'PUT', `/Users/${id}`, token, {
      ...oktaUser(s),
      id,
      name: { givenName: 'Isaac', familyName: 'Brocklehurst' },
      emails: [{ primary: true, value: `isaac.new.${s}@example.com`, type: 'work' }],
      active: true,
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ active: true, name: { familyName: 'Brocklehurst' } });
    const row = await t.userRow(Number(id));
    expect(row).toMatchObject({ status: 'active', email: `isaac.new.${s}@example.com` });
  });

  it("applies Entra's attribute PATCH (emails with a filter path, name parts)", async () => {
    const s = unique();
    const id = (await scim<ScimUser>(t, 'POST', '/Users', token, entraUser(s))).body.id;
    const res = await scim<ScimUser>(t, 'PATCH', `/Users/${id}`, token, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [
        { op: 'Add', path: 'emails[type eq "work"].value', value: `updated_${s}@contoso.example` },
        { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
        { op: 'Replace', path: 'externalId', value: `ext2-${s}` },
      ],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ externalId: `ext2-${s}`, name: { familyName: 'updatedFamilyName' } });
    expect((await t.userRow(Number(id))).email).toBe(`updated_${s}@contoso.example`);
  });

  it('DELETE retires the account: its session ends, it is gone to SCIM, its ledger stays', async () => {
    const s = unique();
    const id = (await scim<ScimUser>(t, 'POST', '/Users', token, { ...oktaUser(s), userName: `gone_${s}` })).body.id;
    expect((await t.put(`/api/admin/users/${id}/password`, { newPassword: 'Secret#123' }, superToken)).status).toBe(
      200,
    );
    const session = await t.tokensFor(`isaac.${s}@example.com`, 'Secret#123');
    expect((await scim(t, 'DELETE', `/Users/${id}`, token)).status).toBe(204);
    expect((await t.get('/api/auth/me', session.accessToken)).status).toBe(401);
    const gone = await scim<ScimErrorBody>(t, 'GET', `/Users/${id}`, token);
    expect(gone.status).toBe(404);
    expect(gone.body.schemas).toEqual([ERROR_SCHEMA]);
    const row = await t.userRow(Number(id));
    expect(row.deleted_at).not.toBeNull();
    expect((await ledgerRows(t, Number(id))).length).toBe(1);
  });

  it('pages with startIndex and count, and refuses filters it does not support', async () => {
    const tag = unique();
    for (let i = 0; i < 3; i++) {
      await scim(t, 'POST', '/Users', token, { ...oktaUser(`${tag}${i}`), externalId: `page-${tag}` });
    }
    const all = await scim<ScimList>(t, 'GET', `/Users?startIndex=1&count=100`, token);
    const total = all.body.totalResults;
    expect(total).toBeGreaterThanOrEqual(4);
    const page = await scim<ScimList>(t, 'GET', `/Users?startIndex=2&count=2`, token);
    expect(page.body).toMatchObject({ totalResults: total, startIndex: 2, itemsPerPage: 2 });
    expect(page.body.Resources.map((r) => r.id)).toEqual(all.body.Resources.slice(1, 3).map((r) => r.id));
    // Okta's connection test: count=2.
    expect((await scim<ScimList>(t, 'GET', '/Users?startIndex=1&count=2', token)).body.Resources).toHaveLength(2);

    for (const filter of ['userName co "a"', 'title eq "x"', 'userName eq "a" or userName eq "b"', 'nonsense((']) {
      const bad = await scim<ScimErrorBody>(t, 'GET', `/Users?filter=${encodeURIComponent(filter)}`, token);
      expect(bad.status, filter).toBe(400);
      expect(bad.body.scimType, filter).toBe('invalidFilter');
    }
  });

  it('lets a provider take over an account that existed before, found by its email as userName', async () => {
    const local = await createUserAsAdmin(t, superToken);
    const found = await scim<ScimList>(
      t,
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${local.email}"`)}`,
      token,
    );
    expect(found.body.Resources.map((r) => r.id)).toEqual([String(local.id)]);
  });

  it('never changes a super administrator', async () => {
    const superId = (
      await t.db.selectFrom('users').select('id').where('email', '=', ADMIN_EMAIL).executeTakeFirstOrThrow()
    ).id;
    const res = await scim<ScimErrorBody>(t, 'PATCH', `/Users/${superId}`, token, {
      Operations: [{ op: 'replace', path: 'active', value: false }],
    });
    expect(res.status).toBe(403);
    expect((await t.userRow(superId)).status).toBe('active');
  });

  it('answers 401 in the SCIM error schema without a token, with an unknown one, and with a revoked one', async () => {
    const none = await t.request('GET', '/scim/v2/Users');
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: '401' });
    expect(String(none.headers['content-type'])).toContain('application/scim+json');
    expect((await scim(t, 'GET', '/Users', 'not-a-token')).status).toBe(401);
    const made = await scimToken(t, superToken, 'to revoke');
    expect((await scim(t, 'GET', '/Users', made.token)).status).toBe(200);
    expect((await t.request('DELETE', `/api/admin/scim-tokens/${made.id}`, { token: superToken })).status).toBe(200);
    expect((await scim(t, 'GET', '/Users', made.token)).status).toBe(401);
  });

  it('serves the discovery documents', async () => {
    const config = await scim<{ patch: { supported: boolean }; filter: { supported: boolean } }>(
      t,
      'GET',
      '/ServiceProviderConfig',
      token,
    );
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({ patch: { supported: true }, filter: { supported: true } });
    const types = await scim<{ Resources: { id: string; endpoint: string }[] }>(t, 'GET', '/ResourceTypes', token);
    expect(types.body.Resources.map((r) => r.endpoint)).toEqual(['/Users', '/Groups']);
    const schemas = await scim<{ Resources: { id: string }[] }>(t, 'GET', '/Schemas', token);
    expect(schemas.body.Resources.map((r) => r.id)).toEqual([
      'urn:ietf:params:scim:schemas:core:2.0:User',
      'urn:ietf:params:scim:schemas:core:2.0:Group',
    ]);
  });
});
