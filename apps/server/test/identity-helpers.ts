import type { IdentityProvider } from '@aiplatform/contracts';
import { type TestPerson, TestBrowser } from './oidc-fixtures.js';
import { type TestApp, unique } from './test-app.js';

/** A person at the test identity provider, unique per call, email verified unless overridden. */
export function testPerson(overrides: Partial<TestPerson> = {}): TestPerson {
  const id = unique().toLowerCase();
  return {
    sub: `s-${id}`,
    email: `p_${id}@corp.example`,
    email_verified: true,
    preferred_username: `p_${id}`.slice(0, 20),
    ...overrides,
  };
}

/** A slug no other test of the run uses: letters and digits after `prefix`. */
export const uniqueSlug = (prefix: string) =>
  `${prefix}${unique()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')}`;

/** Connects a provider through the admin API as `token`; throws with the answer when refused. */
export async function createProvider(
  t: TestApp,
  token: string,
  body: Record<string, unknown>,
): Promise<IdentityProvider> {
  const res = await t.post<IdentityProvider>('/api/admin/identity-providers', body, token);
  if (res.status !== 201) throw new Error(res.text);
  return res.body.data;
}

/** A cookie-keeping browser whose requests to `origin` reach the test app in process. */
export function appBrowser(t: TestApp, origin: string): TestBrowser {
  return new TestBrowser(origin, async (path) => {
    const res = await t.app.inject({ method: 'GET', url: path });
    return { status: res.statusCode, location: res.headers.location };
  });
}

/** The OIDC configuration of a provider backed by the test identity provider, asking for groups too. */
export function oidcConfig(idp: { issuer: string; clientId: string; clientSecret: string }) {
  return {
    issuer: idp.issuer,
    client_id: idp.clientId,
    client_secret: idp.clientSecret,
    scopes: ['openid', 'email', 'profile', 'groups'],
  };
}
