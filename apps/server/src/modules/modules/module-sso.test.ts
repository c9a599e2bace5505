import type { AddressInfo } from 'node:net';
import type { AdminModule, ModuleAuthUrl } from '@aiplatform/contracts';
import { type JWK, type JWTPayload, SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroupAsAdmin, createUserAsAdmin } from '../../../test/admin-helpers.js';
import { type ExampleModule, startExampleModule } from '../../../test/example-module.js';
import { type TestApp, createTestApp, unique } from '../../../test/test-app.js';
import { resolveAppSecret } from '../../lib/auth/secrets.js';
import { deriveModuleSigningKey } from './module-signing-key.js';

/**
 * The single sign-on hand-off end to end: the platform listens on a real port so the
 * example module fetches its key set over HTTP, exactly as a deployed module would.
 */
describe('module single sign-on', () => {
  let t: TestApp;
  let admin: string;
  let jwksUrl: string;
  let crm: AdminModule;
  let wiki: AdminModule;
  let crmApp: ExampleModule;
  let wikiApp: ExampleModule;
  let user: { token: string; id: number; username: string; email: string };

  const createModule = async (body: Record<string, unknown>) => {
    const res = await t.post<AdminModule>(
      '/api/admin/modules',
      { name: `m-${unique()}`, display_name: 'Module', module_url: 'https://module.example/', ...body },
      admin,
    );
    if (res.status !== 201) throw new Error(`module create failed: ${res.status} ${res.text}`);
    return res.body.data;
  };
  const authUrl = (name: string, token = user.token) => t.get<ModuleAuthUrl>(`/api/modules/${name}/auth-url`, token);
  const open = async (url: string) => {
    const res = await fetch(url);
    return { status: res.status, text: await res.text() };
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.loginAsAdmin()).accessToken;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    jwksUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/modules/jwks.json`;

    // Each example module learns its own name first, then the platform learns its address.
    const crmName = `crm-${unique()}`;
    const wikiName = `wiki-${unique()}`;
    crmApp = await startExampleModule({ jwksUrl, name: crmName });
    wikiApp = await startExampleModule({ jwksUrl, name: wikiName });
    crm = await createModule({ name: crmName, module_url: `${crmApp.url}?lang=en`, auth_mode: 'signed_token' });
    wiki = await createModule({ name: wikiName, module_url: wikiApp.url, auth_mode: 'signed_token' });

    const { creds, session } = await t.signUp();
    user = { token: session.accessToken, id: creds.id, username: creds.username, email: creds.email };
  });
  afterAll(async () => {
    await crmApp.close();
    await wikiApp.close();
    await t.close();
  });

  it('publishes the public key without sign-in', async () => {
    const res = await t.get<{ keys: JWK[] }>('/api/modules/jwks.json');
    expect(res.status).toBe(200);
    const body = JSON.parse(res.text) as { keys: JWK[] };
    expect(body.keys).toHaveLength(1);
    expect(body.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(body.keys[0]!.kid).toEqual(expect.any(String));
    expect(body.keys[0]).not.toHaveProperty('d');
  });

  it('hands a signed-in user into the module, which verifies the token and greets them', async () => {
    const res = await authUrl(crm.name);
    expect(res.status, res.text).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.data.expires_in).toBe(60);
    const url = new URL(res.body.data.url);
    expect(url.origin + url.pathname).toBe(crmApp.url);
    expect(url.searchParams.get('lang')).toBe('en');
    const token = url.searchParams.get('token')!;

    const jwks = JSON.parse((await t.get('/api/modules/jwks.json')).text) as { keys: JWK[] };
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'EdDSA', kid: jwks.keys[0]!.kid });
    const claims = decodeJwt(token);
    const group = await t.db.selectFrom('user_groups').select(['id', 'name']).where('id', '=', 1).executeTakeFirst();
    expect(claims).toMatchObject({
      iss: 'aiplatform',
      aud: crm.name,
      sub: String(user.id),
      email: user.email,
      username: user.username,
      role: 'user',
      group: { id: 1, name: group!.name },
    });
    expect(claims.exp! - claims.iat!).toBe(60);
    expect(claims.jti).toEqual(expect.any(String));
    expect(decodeJwt(new URL((await authUrl(crm.name)).body.data.url).searchParams.get('token')!).jti).not.toBe(
      claims.jti,
    );

    const page = await open(res.body.data.url);
    expect(page.status, page.text).toBe(200);
    expect(page.text).toContain(`Hello, ${user.username}`);
  });

  it('the module refuses a missing token, a token for another module, an altered one and an expired one', async () => {
    expect((await open(crmApp.url)).status).toBe(401);

    const forCrm = new URL((await authUrl(crm.name)).body.data.url).searchParams.get('token')!;
    const elsewhere = await open(`${wikiApp.url}?token=${forCrm}`);
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.text).not.toContain('Hello');

    const [header, payload, signature] = forCrm.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, username: 'someone_else', role: 'super_admin' })).toString(
      'base64url',
    );
    expect((await open(`${crmApp.url}?token=${header}.${forged}.${signature}`)).status).toBe(401);
    const flipped = signature.slice(0, -2) + (signature.endsWith('AA') ? 'BB' : 'AA');
    expect((await open(`${crmApp.url}?token=${header}.${payload}.${flipped}`)).status).toBe(401);

    // Issued two minutes ago: a minute past its end.
    t.clock.advance(-120_000);
    try {
      const old = (await authUrl(crm.name)).body.data.url;
      expect((await open(old)).status).toBe(401);
    } finally {
      t.clock.advance(120_000);
    }
  });

  it("gives every token of the platform an id, an issue time, an end and the module's name as audience", async () => {
    const claims = decodeJwt(new URL((await authUrl(crm.name)).body.data.url).searchParams.get('token')!);
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(claims.iat).toBe(Math.floor(t.clock.now().getTime() / 1000));
    expect(claims.exp).toBe(claims.iat! + 60);
    expect(claims.aud).toBe(crm.name);
  });

  it('the module opens once per token: the same link a second time is refused', async () => {
    const url = (await authUrl(crm.name)).body.data.url;
    const first = await open(url);
    expect(first.status, first.text).toBe(200);
    const again = await open(url);
    expect(again.status).toBe(401);
    expect(again.text).not.toContain('Hello');
    // A new link from the platform opens it again.
    expect((await open((await authUrl(crm.name)).body.data.url)).status).toBe(200);
  });

  it('the module refuses a genuinely signed token without exp, iat or jti, or issued too long ago', async () => {
    const key = await deriveModuleSigningKey(resolveAppSecret(t.config.appSecret, t.config.dataDir));
    const now = Math.floor(Date.now() / 1000);
    const sign = (claims: JWTPayload) =>
      new SignJWT({ username: user.username, ...claims })
        .setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ: 'JWT' })
        .setIssuer('aiplatform')
        .setAudience(crm.name)
        .setSubject(String(user.id))
        .sign(key.privateKey);
    const complete = { iat: now, exp: now + 60 };
    const withId = (claims: JWTPayload) => ({ ...claims, jti: crypto.randomUUID() });
    // Signed right: the module accepts it, so each refusal below is for the missing claim alone.
    expect((await open(`${crmApp.url}?token=${await sign(withId(complete))}`)).status).toBe(200);
    const cases: [string, JWTPayload][] = [
      ['no exp', withId({ iat: now })],
      ['no iat', withId({ exp: now + 60 })],
      ['no jti', complete],
      ['issued an hour ago, ending in an hour', withId({ iat: now - 3600, exp: now + 3600 })],
    ];
    for (const [label, claims] of cases) {
      const page = await open(`${crmApp.url}?token=${await sign(claims)}`);
      expect(page.status, label).toBe(401);
      expect(page.text, label).not.toContain('Hello');
    }
  });

  it('answers the plain address for a module that takes no token', async () => {
    const plain = await createModule({ module_url: 'https://plain.example/start?x=1' });
    const res = await authUrl(plain.name);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ url: 'https://plain.example/start?x=1', expires_in: null });
  });

  it('answers 404 for a module the user may not open, 401 without sign-in', async () => {
    const other = await createGroupAsAdmin(t, admin);
    const restricted = await createModule({ auth_mode: 'signed_token', group_ids: [other.id] });
    expect((await authUrl(restricted.name)).status).toBe(404);
    // A member of that group may.
    const member = await createUserAsAdmin(t, admin, { group_id: other.id });
    const memberToken = (await t.tokensFor(member.email, member.password)).accessToken;
    const granted = await authUrl(restricted.name, memberToken);
    expect(granted.status).toBe(200);
    expect(decodeJwt(new URL(granted.body.data.url).searchParams.get('token')!).group).toEqual({
      id: other.id,
      name: other.name,
    });

    const inactive = await createModule({ auth_mode: 'signed_token', is_active: false });
    expect((await authUrl(inactive.name)).status).toBe(404);
    expect((await authUrl('no-such-module')).status).toBe(404);
    for (const bad of ['x'.repeat(65), 'a%00b', 'UPPER', '%20']) {
      const res = await authUrl(bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.error, bad).toBe('VALIDATION_FAILED');
    }
    const anonymous = await authUrl(crm.name, '');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toBe('UNAUTHORIZED');
  });

  it('signs with the same key on every instance sharing the secret, and another secret gives another key', async () => {
    const sibling = await t.sibling();
    try {
      const here = (await t.get('/api/modules/jwks.json')).text;
      const there = (await sibling.app.inject({ method: 'GET', url: '/api/modules/jwks.json' })).body;
      expect(JSON.parse(there)).toEqual(JSON.parse(here));
    } finally {
      await sibling.app.close();
    }
    const a = await deriveModuleSigningKey('one secret');
    expect((await deriveModuleSigningKey('one secret')).kid).toBe(a.kid);
    expect((await deriveModuleSigningKey('another secret')).kid).not.toBe(a.kid);
    // Our instance's key verifies tokens for the wiki too: one key set for every module.
    const page = await open((await authUrl(wiki.name)).body.data.url);
    expect(page.status).toBe(200);
  });
});
