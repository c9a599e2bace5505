import { inflateRawSync } from 'node:zlib';
import type { IdentityProvider, IdentityProviderTestResult, LoginResult } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, ledgerRows } from '../../../../test/admin-helpers.js';
import { TestSamlIdp, type AssertionOptions } from '../../../../test/saml-idp.js';
import { createProvider as addProvider } from '../../../../test/identity-helpers.js';
import { type TestApp, createTestApp, unique } from '../../../../test/test-app.js';

const MAPPING = { email_claim: 'email', username_claim: 'uid', name_claim: 'displayName', groups_claim: 'groups' };
const FORM = { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' };

describe('SAML sign-in through the API', () => {
  let t: TestApp;
  let superToken: string;
  let idp: TestSamlIdp;

  beforeAll(async () => {
    idp = new TestSamlIdp();
    t = await createTestApp();
    superToken = (await t.loginAsAdmin()).accessToken;
  });
  afterAll(async () => {
    await t.close();
  });

  async function createProvider(overrides: Record<string, unknown> = {}) {
    const slug = `saml${unique().toLowerCase()}`;
    return addProvider(t, superToken, {
      type: 'saml',
      slug,
      name: 'Corp SAML',
      config: { idp_metadata_xml: idp.metadataXml(), sp_entity_id: `https://chat.example.test/saml/${slug}` },
      mapping: MAPPING,
      jit: true,
      ...overrides,
    });
  }

  /** `start` as the browser follows it: the IdP address and the AuthnRequest it carries. */
  async function start(slug: string, redirect = '/chat', app = t) {
    const res = await app.app.inject({ method: 'GET', url: `/api/auth/sso/${slug}/start?redirect=${redirect}` });
    expect(res.statusCode).toBe(302);
    const location = new URL(res.headers.location!);
    const request = inflateRawSync(Buffer.from(location.searchParams.get('SAMLRequest')!, 'base64')).toString();
    return {
      location,
      relayState: location.searchParams.get('RelayState')!,
      requestId: /\bID="([^"]+)"/.exec(request)![1]!,
      acsUrl: /AssertionConsumerServiceURL="([^"]+)"/.exec(request)![1]!,
      issuer: /<saml:Issuer[^>]*>([^<]+)</.exec(request)![1]!,
    };
  }

  function answer(flow: Awaited<ReturnType<typeof start>>, overrides: Partial<AssertionOptions> = {}) {
    const id = unique();
    return idp.response({
      inResponseTo: flow.requestId,
      audience: flow.issuer,
      recipient: flow.acsUrl,
      nameId: `emp-${id}`,
      attributes: { email: `saml_${id}@corp.test`, uid: `saml_${id}`, displayName: 'Sam L', groups: ['staff'] },
      ...overrides,
    });
  }

  /** The IdP's form post to the ACS, as the browser sends it. */
  const postAcs = (slug: string, samlResponse: string, relayState: string, app = t) =>
    app.app.inject({
      method: 'POST',
      url: `/api/auth/sso/${slug}/acs`,
      headers: FORM,
      payload: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: relayState }).toString(),
    });

  it('signs a new person in: start → IdP → ACS → /sso/complete → exchange', async () => {
    const provider = await createProvider();
    const flow = await start(provider.slug);
    expect(flow.location.origin + flow.location.pathname).toBe(idp.ssoUrl);
    expect(flow.acsUrl).toMatch(new RegExp(`/api/auth/sso/${provider.slug}/acs$`));
    const acs = await postAcs(
      provider.slug,
      answer(flow, { attributes: { email: 'sam@corp.test', uid: 'samuel' } }),
      flow.relayState,
    );
    expect(acs.statusCode).toBe(302);
    const landing = new URL(acs.headers.location!, 'http://site.invalid');
    expect(landing.pathname).toBe('/sso/complete');
    const fragment = new URLSearchParams(landing.hash.slice(1));
    expect(fragment.get('redirect')).toBe('/chat');
    const login = await t.post<LoginResult>('/api/auth/sso/exchange', { code: fragment.get('code') });
    expect(login.status).toBe(200);
    expect(login.body.data.user).toMatchObject({ email: 'sam@corp.test', username: 'samuel' });
    expect((await ledgerRows(t, login.body.data.user.id)).map((r) => r.transaction_type)).toEqual(['system_reward']);
  });

  it('sends a refused Response to the login page with its code, and creates nobody', async () => {
    const provider = await createProvider();
    const users = await countRows(t, 'users');
    const flow = await start(provider.slug);
    const unsigned = await postAcs(provider.slug, answer(flow, { sign: false }), flow.relayState);
    expect(unsigned.statusCode).toBe(302);
    expect(unsigned.headers.location).toBe('/login?sso_error=SAML_RESPONSE_INVALID');
    const other = await start(provider.slug);
    const audience = await postAcs(
      provider.slug,
      answer(other, { audience: 'https://elsewhere.test' }),
      other.relayState,
    );
    expect(audience.headers.location).toBe('/login?sso_error=SAML_RESPONSE_INVALID');
    expect(await countRows(t, 'users')).toBe(users);
  });

  it('accepts a Response once, on whichever instance it is posted again', async () => {
    const provider = await createProvider();
    const flow = await start(provider.slug);
    const response = answer(flow);
    expect((await postAcs(provider.slug, response, flow.relayState)).headers.location).toMatch(/^\/sso\/complete#/);
    const sibling = await t.sibling();
    try {
      const again = await postAcs(provider.slug, response, flow.relayState, sibling);
      expect(again.headers.location).toMatch(/^\/login\?sso_error=/);
      // Even with a flow of its own, the captured Response answers another AuthnRequest.
      const fresh = await start(provider.slug, '/', sibling);
      const replayed = await postAcs(provider.slug, response, fresh.relayState, sibling);
      expect(replayed.headers.location).toBe('/login?sso_error=SAML_RESPONSE_INVALID');
    } finally {
      await sibling.app.close();
    }
  });

  it('records each assertion ID once in the shared table, whichever instance asks', async () => {
    const provider = await createProvider();
    const sibling = await t.sibling();
    try {
      const expires = new Date(Date.now() + 60_000).toISOString();
      expect(await t.identity.tickets.claimAssertion(provider.id, '_a-1', expires)).toBe(true);
      expect(await sibling.identity.tickets.claimAssertion(provider.id, '_a-1', expires)).toBe(false);
    } finally {
      await sibling.app.close();
    }
  });

  it('hands the AuthnRequest over in a self-posting form when the IdP takes only HTTP-POST', async () => {
    const provider = await createProvider({
      config: { idp_metadata_xml: idp.metadataXml({ binding: 'post' }), sp_entity_id: 'urn:sp:post' },
    });
    const res = await t.app.inject({ method: 'GET', url: `/api/auth/sso/${provider.slug}/start` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain(`action="${idp.ssoUrl}"`);
    expect(res.body).toContain('name="SAMLRequest"');
    // The page's one script runs by its nonce; the form may go nowhere but the IdP.
    const nonce = /<script nonce="([^"]+)"/.exec(res.body)![1]!;
    const policy = String(res.headers['content-security-policy']);
    expect(policy).toContain(`script-src 'nonce-${nonce}'`);
    expect(policy).toContain(`form-action ${new URL(idp.ssoUrl).origin}`);
  });

  it('refuses to start for a disabled provider, and for a slug that is not SAML', async () => {
    const provider = await createProvider({ enabled: false });
    const res = await t.app.inject({ method: 'GET', url: `/api/auth/sso/${provider.slug}/start` });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login?sso_error=SSO_PROVIDER_DISABLED');
    const missing = await t.app.inject({ method: 'GET', url: `/api/auth/sso/nosuch${unique()}/start` });
    expect(missing.headers.location).toBe('/login?sso_error=NOT_FOUND');
  });

  it('answers an ACS post without a known flow on the login page', async () => {
    const provider = await createProvider();
    const flow = await start(provider.slug);
    const res = await postAcs(provider.slug, answer(flow), 'not-a-state');
    expect(res.headers.location).toBe('/login?sso_error=SSO_STATE_INVALID');
  });

  it('serves the SP metadata with the ACS, and uses PUBLIC_URL when set', async () => {
    const provider = await createProvider();
    const res = await t.app.inject({ method: 'GET', url: `/api/auth/sso/${provider.slug}/metadata` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/samlmetadata+xml');
    expect(res.body).toContain(`entityID="https://chat.example.test/saml/${provider.slug}"`);
    expect(res.body).toContain(`/api/auth/sso/${provider.slug}/acs"`);
    const behindProxy = await createTestApp({ config: { publicUrl: 'https://chat.example.test' } });
    try {
      const token = (await behindProxy.loginAsAdmin()).accessToken;
      const created = await behindProxy.post<IdentityProvider>(
        '/api/admin/identity-providers',
        {
          type: 'saml',
          slug: 'corp',
          name: 'Corp',
          config: { idp_metadata_xml: idp.metadataXml(), sp_entity_id: 'urn:sp' },
        },
        token,
      );
      expect(created.status).toBe(201);
      const metadata = await behindProxy.app.inject({ method: 'GET', url: '/api/auth/sso/corp/metadata' });
      expect(metadata.body).toContain('Location="https://chat.example.test/api/auth/sso/corp/acs"');
    } finally {
      await behindProxy.close();
    }
  });

  it('refuses metadata with a DOCTYPE or without a certificate when the provider is saved', async () => {
    const body = idp.metadataXml().replace(/^<\?xml[^>]*>\s*/, '');
    const doctype = await t.post(
      '/api/admin/identity-providers',
      {
        type: 'saml',
        slug: `x${unique().toLowerCase()}`,
        name: 'X',
        config: {
          idp_metadata_xml: `<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>${body}`,
          sp_entity_id: 'urn:sp',
        },
      },
      superToken,
    );
    expect(doctype.status).toBe(400);
    expect(doctype.body.error).toBe('SAML_METADATA_UNSAFE');
    const provider = await createProvider();
    const noCert = await t.put(
      `/api/admin/identity-providers/${provider.id}`,
      { type: 'saml', config: { idp_metadata_xml: idp.metadataXml({ withCert: false }), sp_entity_id: 'urn:sp' } },
      superToken,
    );
    expect(noCert.status).toBe(400);
    expect(noCert.body.error).toBe('SAML_METADATA_NO_CERT');
  });

  it('tests a SAML provider: metadata parsed, certificates counted', async () => {
    const provider = await createProvider();
    const res = await t.post<IdentityProviderTestResult>(
      `/api/admin/identity-providers/${provider.id}/test`,
      {},
      superToken,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      ok: true,
      details: { entity_id: idp.entityId, sso_url: idp.ssoUrl, signing_certificates: 1 },
    });
  });
});
