import type { IdentityProvider, IdentityProviderTestResult, LoginResult, SignInProvider } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, createGroupAsAdmin, createUserAsAdmin } from '../../../../test/admin-helpers.js';
import { appBrowser, createProvider, oidcConfig, testPerson } from '../../../../test/identity-helpers.js';
import {
  type FakeIssuer,
  type RunningIdp,
  type TestBrowser,
  startFakeIssuer,
  startTestIdp,
} from '../../../../test/oidc-fixtures.js';
import { type TestApp, createTestApp } from '../../../../test/test-app.js';

const APP = 'http://app.test';
const callbackOf = (slug: string) => `${APP}/api/auth/sso/${slug}/callback`;

const person = testPerson;

describe('signing in with OpenID Connect', () => {
  let t: TestApp;
  let superToken: string;
  let idp: RunningIdp;
  let fake: FakeIssuer;
  let browser: TestBrowser;
  let engineers: number;

  beforeAll(async () => {
    t = await createTestApp({ config: { publicUrl: APP } });
    superToken = (await t.loginAsAdmin()).accessToken;
    idp = await startTestIdp([callbackOf('corp')]);
    fake = await startFakeIssuer();
    engineers = (await createGroupAsAdmin(t, superToken)).id;
    const create = (body: Record<string, unknown>) => createProvider(t, superToken, body);
    await create({
      type: 'oidc',
      slug: 'corp',
      name: 'Corp',
      jit: true,
      config: oidcConfig(idp),
      mapping: { group_map: [{ value: 'engineering', group_id: engineers }] },
    });
    await create({
      type: 'oidc',
      slug: 'fake',
      name: 'Fake',
      jit: true,
      config: { issuer: fake.issuer, client_id: fake.clientId },
    });
    browser = appBrowser(t, APP);
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
    await fake.close();
  });

  /** Where the app's own pages (not its API) are reached: the end of a sign-in, good or bad. */
  const onSitePage = (url: URL) => url.origin === APP && !url.pathname.startsWith('/api/');
  const atCallback = (url: URL) => url.origin === APP && url.pathname.endsWith('/callback');
  const start = (slug: string, redirect = '/chat') =>
    `/api/auth/sso/${slug}/start?redirect=${encodeURIComponent(redirect)}`;

  /** Runs the whole flow; answers the page it ends on. */
  const signIn = (slug: string, redirect?: string) => browser.follow(start(slug, redirect), onSitePage);
  const fragment = (url: URL) => new URLSearchParams(url.hash.slice(1));
  const exchange = (code: string) => t.post<LoginResult>('/api/auth/sso/exchange', { code });
  const ssoError = (url: URL) =>
    url.pathname === '/login' ? url.searchParams.get('sso_error') : `landed on ${url.href}`;

  it('signs a new person in: provider, callback, one-time code, session; groups come from userinfo', async () => {
    const alice = person({ groups: ['engineering'] });
    idp.signInAs(alice);
    const first = await t.app.inject({ method: 'GET', url: start('corp') });
    expect(first.statusCode).toBe(302);
    const authorize = new URL(first.headers.location as string);
    expect(authorize.origin).toBe(idp.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    expect(authorize.searchParams.get('redirect_uri')).toBe(callbackOf('corp'));

    const end = await browser.follow(authorize.href, onSitePage);
    expect(end.pathname).toBe('/sso/complete');
    expect(fragment(end).get('redirect')).toBe('/chat');
    const res = await exchange(fragment(end).get('code')!);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.user).toMatchObject({ email: alice.email, group_id: engineers });
    expect((await t.get('/api/auth/me', res.body.data.accessToken)).status).toBe(200);
    // The same person again: the same account.
    idp.signInAs(alice);
    const again = await exchange(fragment(await signIn('corp')).get('code')!);
    expect(again.body.data.user.id).toBe(res.body.data.user.id);
  });

  it('refuses a forged state and a replayed callback, starting no session', async () => {
    const sessions = await countRows(t, 'auth_sessions');
    const forged = await browser.follow(`/api/auth/sso/corp/callback?code=abc&state=forged-state`, onSitePage);
    expect(ssoError(forged)).toBe('SSO_STATE_INVALID');

    idp.signInAs(person());
    const callback = await browser.follow(start('corp'), atCallback);
    const once = await browser.follow(callback.href, onSitePage);
    expect(once.pathname).toBe('/sso/complete');
    const replay = await browser.follow(callback.href, onSitePage);
    expect(ssoError(replay)).toBe('SSO_STATE_INVALID');
    expect(await countRows(t, 'auth_sessions')).toBe(sessions);
  });

  it('refuses an authorization code used before, even with a fresh state', async () => {
    idp.signInAs(person());
    const used = await browser.follow(start('corp'), atCallback);
    await browser.follow(used.href, onSitePage);
    idp.signInAs(person());
    const fresh = await browser.follow(start('corp'), atCallback);
    const mixed = new URL(fresh);
    mixed.searchParams.set('code', used.searchParams.get('code')!);
    const sessions = await countRows(t, 'auth_sessions');
    expect(ssoError(await browser.follow(mixed.href, onSitePage))).toBe('SSO_TOKEN_INVALID');
    expect(await countRows(t, 'auth_sessions')).toBe(sessions);
  });

  it('trades an exchange code once only', async () => {
    idp.signInAs(person());
    const code = fragment(await signIn('corp')).get('code')!;
    expect((await exchange(code)).status).toBe(200);
    const sessions = await countRows(t, 'auth_sessions');
    const again = await exchange(code);
    expect(again.body.error).toBe('SSO_STATE_INVALID');
    expect(await countRows(t, 'auth_sessions')).toBe(sessions);
  });

  it.each(['//evil.example/x', 'https://evil.example/x', '/\\evil.example', 'javascript:alert(1)'])(
    'lands on this site when asked to go to %s',
    async (redirect) => {
      idp.signInAs(person());
      const end = await signIn('corp', redirect);
      expect(end.origin).toBe(APP);
      expect(fragment(end).get('redirect')).toBe('/');
    },
  );

  it.each([
    ['audience', 'meant for another client'],
    ['nonce', 'carrying another nonce'],
    ['expired', 'expired'],
    ['signature', 'signed by another key'],
    ['issuer', 'from another issuer'],
  ] as const)('refuses an ID token with the wrong %s (%s)', async (fault, _why) => {
    fake.fault = fault;
    fake.person = { sub: `f-${fault}`, email: `f_${fault}@corp.example`, email_verified: true };
    const users = await countRows(t, 'users');
    const sessions = await countRows(t, 'auth_sessions');
    expect(ssoError(await signIn('fake'))).toBe('SSO_TOKEN_INVALID');
    expect(await countRows(t, 'users')).toBe(users);
    expect(await countRows(t, 'auth_sessions')).toBe(sessions);
  });

  it('gives the session only to the tab that started the sign-in (login forgery refused)', async () => {
    // The attacker signs in with their own account in their own tab, keeping the value that
    // binds it, and sends the finished address to a victim, whose page has no such value.
    const binding = 'A'.repeat(43);
    const mallory = person();
    idp.signInAs(mallory);
    const attackers = fragment(await browser.follow(`${start('corp')}&binding=${binding}`, onSitePage));
    const sessions = await countRows(t, 'auth_sessions');
    const victim = await t.post('/api/auth/sso/exchange', { code: attackers.get('code'), binding: 'B'.repeat(43) });
    expect(victim.status).toBe(400);
    expect(victim.body.error).toBe('SSO_STATE_INVALID');
    expect(await countRows(t, 'auth_sessions')).toBe(sessions);
    // Without any value, too (a page that lost it); and the code is spent by the refusal.
    idp.signInAs(mallory);
    const again = fragment(await browser.follow(`${start('corp')}&binding=${binding}`, onSitePage));
    expect((await exchange(again.get('code')!)).body.error).toBe('SSO_STATE_INVALID');
    // The tab that started it finishes it.
    idp.signInAs(mallory);
    const own = fragment(await browser.follow(`${start('corp')}&binding=${binding}`, onSitePage));
    const res = await t.post<LoginResult>('/api/auth/sso/exchange', { code: own.get('code'), binding });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.user.email).toBe(mallory.email);
  });

  it('refuses an unverified email that matches a local account', async () => {
    const local = await createUserAsAdmin(t, superToken);
    idp.signInAs(person({ email: local.email, email_verified: false }));
    expect(ssoError(await signIn('corp'))).toBe('SSO_EMAIL_CONFLICT');
  });

  it('serves two enabled providers side by side', async () => {
    const listed = await t.get<SignInProvider[]>('/api/auth/providers');
    expect(listed.body.data.map((p) => p.slug)).toEqual(expect.arrayContaining(['corp', 'fake']));
    fake.fault = 'none';
    fake.person = { sub: 'f-ok', email: 'f_ok@corp.example', email_verified: true };
    const viaFake = await exchange(fragment(await signIn('fake')).get('code')!);
    expect(viaFake.body.data.user.email).toBe('f_ok@corp.example');
    const bob = person();
    idp.signInAs(bob);
    const viaCorp = await exchange(fragment(await signIn('corp')).get('code')!);
    expect(viaCorp.body.data.user.email).toBe(bob.email);
  });

  it('answers unknown and disabled providers with the sign-in page and a reason', async () => {
    expect(ssoError(await signIn('nobody'))).toBe('NOT_FOUND');
    const off = await t.post<IdentityProvider>(
      '/api/admin/identity-providers',
      { type: 'oidc', slug: 'off', name: 'Off', enabled: false, config: { issuer: fake.issuer, client_id: 'x' } },
      superToken,
    );
    expect(off.status).toBe(201);
    expect(ssoError(await signIn('off'))).toBe('SSO_PROVIDER_DISABLED');
  });

  it('tests the connection by reading the discovery document', async () => {
    const providers = await t.get<IdentityProvider[]>('/api/admin/identity-providers', superToken);
    const corp = providers.body.data.find((p) => p.slug === 'corp')!;
    const res = await t.post<IdentityProviderTestResult>(
      `/api/admin/identity-providers/${corp.id}/test`,
      undefined,
      superToken,
    );
    expect(res.body.data).toMatchObject({ ok: true, details: { issuer: idp.issuer } });
    const broken = await t.post<IdentityProvider>(
      '/api/admin/identity-providers',
      { type: 'oidc', slug: 'broken', name: 'Broken', config: { issuer: 'http://127.0.0.1:9', client_id: 'x' } },
      superToken,
    );
    const failed = await t.post<IdentityProviderTestResult>(
      `/api/admin/identity-providers/${broken.body.data.id}/test`,
      undefined,
      superToken,
    );
    expect(failed.body.data.ok).toBe(false);
  });
});
