import type { IdentityProvider, SsoPreview, SsoPreviewStart } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminSession,
  auditRowsAfter,
  auditHeadSeq,
  countRows,
  createGroupAsAdmin,
} from '../../../test/admin-helpers.js';
import { appBrowser, createProvider, oidcConfig, testPerson } from '../../../test/identity-helpers.js';
import { type RunningIdp, type TestBrowser, type TestPerson, startTestIdp } from '../../../test/oidc-fixtures.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';

const APP = 'http://app.test';

const person = testPerson;

describe("an administrator's test sign-in (claims preview)", () => {
  let t: TestApp;
  let superToken: string;
  let idp: RunningIdp;
  let browser: TestBrowser;
  let engineers: number;
  let corp: IdentityProvider;

  beforeAll(async () => {
    t = await createTestApp({ config: { publicUrl: APP } });
    superToken = (await t.loginAsAdmin()).accessToken;
    idp = await startTestIdp([`${APP}/api/auth/sso/corp/callback`]);
    engineers = (await createGroupAsAdmin(t, superToken)).id;
    corp = await createProvider(t, superToken, {
      type: 'oidc',
      slug: 'corp',
      name: 'Corp',
      jit: true,
      // Switched off: a provider is tested before people may use it.
      enabled: false,
      config: oidcConfig(idp),
      mapping: {
        group_map: [{ value: 'engineering', group_id: engineers }],
        role_map: [{ value: 'leads', role: 'admin' }],
      },
    });
    browser = appBrowser(t, APP);
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  const previewPath = `/api/admin/identity-providers/`;
  /** Runs the test sign-in as `token`'s administrator; answers the code the identity page receives. */
  async function testSignIn(who: TestPerson, token = superToken): Promise<string> {
    idp.signInAs(who);
    const started = await t.post<SsoPreviewStart>(`${previewPath}${corp.id}/preview`, {}, token);
    expect(started.status, started.text).toBe(200);
    const end = await browser.follow(
      started.body.data.url!,
      (url) => url.origin === APP && !url.pathname.startsWith('/api/'),
    );
    expect(end.pathname).toBe('/admin/identity');
    const fragment = new URLSearchParams(end.hash.slice(1));
    expect(fragment.get('provider')).toBe(String(corp.id));
    return fragment.get('preview')!;
  }
  const result = (code: string, token = superToken, id = corp.id) =>
    t.post<SsoPreview>(`${previewPath}${id}/preview/result`, { code }, token);
  const identities = async () =>
    Number(
      (
        await t.db
          .selectFrom('user_identities')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('shows the claims and what the mapping would do, creating no account, link or session', async () => {
    const alice = person({ groups: ['engineering', 'leads'], name: 'Alice Example' });
    const before = {
      users: await countRows(t, 'users'),
      sessions: await countRows(t, 'auth_sessions'),
      identities: await identities(),
    };
    const seq = await auditHeadSeq(t);
    const code = await testSignIn(alice);
    const res = await result(code);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({
      subject: alice.sub,
      email: alice.email,
      email_verified: true,
      groups: ['engineering', 'leads'],
      outcome: { account: 'create', group_id: engineers, role: 'admin' },
    });
    expect(res.body.data.claims).toMatchObject({ sub: alice.sub, groups: ['engineering', 'leads'] });
    expect(res.body.data.outcome.group_name).toBeTruthy();
    expect(await countRows(t, 'users')).toBe(before.users);
    expect(await countRows(t, 'auth_sessions')).toBe(before.sessions);
    expect(await identities()).toBe(before.identities);
    const audit = await auditRowsAfter(t, seq);
    expect(audit.map((r) => r.action)).toContain('identity.preview');
  });

  it('names an existing account holding the email as a conflict when linking is not allowed', async () => {
    const { user } = await adminSession(t, superToken);
    const code = await testSignIn(person({ email: user.email, groups: [] }));
    const res = await result(code);
    expect(res.body.data.outcome).toMatchObject({ account: 'conflict', group_id: null, role: 'user' });
  });

  it('spends a code once, and only for the administrator and provider it was made for', async () => {
    const other = await adminSession(t, superToken, { role: 'super_admin' });
    const code = await testSignIn(person());
    expect((await result(code, other.token)).body.error).toBe('SSO_STATE_INVALID');
    expect((await result(code, superToken, corp.id + 1000)).status).toBe(404);
    expect((await result(code)).status).toBe(200);
    const again = await result(code);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('SSO_STATE_INVALID');
  });

  it('is for super administrators only', async () => {
    const groupAdmin = await adminSession(t, superToken);
    expect((await t.post(`${previewPath}${corp.id}/preview`, {}, groupAdmin.token)).status).toBe(403);
    expect((await t.post(`${previewPath}${corp.id}/preview`, {})).status).toBe(401);
    expect((await result('x', groupAdmin.token)).status).toBe(403);
  });

  it('leaves the real sign-in of a disabled provider refused', async () => {
    idp.signInAs(person());
    const start = await t.app.inject({ method: 'GET', url: '/api/auth/sso/corp/start' });
    expect(start.headers.location).toContain('sso_error=SSO_PROVIDER_DISABLED');
  });
});
