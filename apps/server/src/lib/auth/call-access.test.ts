import { API_CALLS, type CallName, type CallSpec, ROLE_PERMISSIONS, callPath, scopeOf } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../../test/test-app.js';

/**
 * The call table is the API's spine: every JSON route is described there with its access,
 * and the route enforces that access before it looks at the request.
 */

/** Routes that are not JSON calls: probes, key sets, files, images, pages and event streams. */
const PLAIN_HTTP = new Set([
  'GET /api/health',
  'GET /api/ready',
  'GET /api/modules/jwks.json',
  'GET /api/avatars/:name',
  'POST /api/auth/avatar',
  // A person's data as a ZIP: theirs, or one person's for a super administrator.
  'GET /api/auth/export',
  'GET /api/admin/users/:id/export',
  'GET /api/public/homepage.html',
  'GET /api/public/site-images/:name',
  'POST /api/chat/upload-image',
  'POST /api/chat/files',
  'GET /api/chat/images/:id',
  'GET /api/chat/conversations/:id/stream',
  'GET /api/admin/users/export.csv',
  'POST /api/admin/users/import',
  'GET /api/admin/audit-logs/export.csv',
  'GET /api/admin/stats/export.csv',
  'POST /api/admin/settings/upload-logo',
  'POST /api/admin/settings/upload-favicon',
  // Single sign-on in the browser, answered with 302 (to the provider, to /sso/complete, to
  // /admin/identity#preview=… after an administrator's test sign-in, or to
  // /login?sso_error=…), not JSON: `start`, the OIDC callback and the SAML ACS (which takes the
  // IdP's HTML form post); the SAML SP metadata is XML. Nobody is signed in yet on any of them.
  'GET /api/auth/sso/:slug/start',
  'GET /api/auth/sso/:slug/callback',
  'POST /api/auth/sso/:slug/acs',
  'GET /api/auth/sso/:slug/metadata',
  // SCIM 2.0 for identity providers: its own media type (application/scim+json), its own
  // bearer token (a SCIM token, not a session) and its own error schema.
  'GET /scim/v2/ServiceProviderConfig',
  'GET /scim/v2/ResourceTypes',
  'GET /scim/v2/Schemas',
  'GET /scim/v2/Users',
  'POST /scim/v2/Users',
  'GET /scim/v2/Users/:id',
  'PUT /scim/v2/Users/:id',
  'PATCH /scim/v2/Users/:id',
  'DELETE /scim/v2/Users/:id',
  'GET /scim/v2/Groups',
  'POST /scim/v2/Groups',
  'GET /scim/v2/Groups/:id',
  'PUT /scim/v2/Groups/:id',
  'PATCH /scim/v2/Groups/:id',
  'DELETE /scim/v2/Groups/:id',
  // The OpenAI-compatible API for personal API keys: OpenAI's bodies, server-sent chunks and
  // error shape, and a key (not a session) as its bearer token.
  'GET /v1/models',
  'POST /v1/chat/completions',
  'POST /v1/embeddings',
]);

const CALLS = Object.entries(API_CALLS) as [CallName, CallSpec][];
const urlOf = (spec: CallSpec) =>
  `/api${callPath(spec.path, Object.fromEntries([...spec.path.matchAll(/:(\w+)/g)].map((m) => [m[1]!, 1])))}`;
/** A query no schema accepts: numbers out of range and not numbers at all. */
const BAD_QUERY = '?page=-5&limit=abc&days=-3&group_id=x&q=';

describe('the call table', () => {
  let t: TestApp;
  let plain: string;

  beforeAll(async () => {
    t = await createTestApp();
    plain = (await t.signUp()).session.accessToken;
  });
  afterAll(async () => {
    await t.close();
  });

  it('describes every JSON route the server registers', async () => {
    await t.app.ready();
    const documented = (t.app.swagger() as { paths: Record<string, Record<string, { operationId?: string }>> }).paths;
    const outside: string[] = [];
    for (const [path, operations] of Object.entries(documented)) {
      for (const [method, operation] of Object.entries(operations)) {
        const route = `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`;
        const described = operation.operationId !== undefined && operation.operationId in API_CALLS;
        if (!described && !PLAIN_HTTP.has(route)) outside.push(route);
      }
    }
    expect(outside).toEqual([]);
  });

  it('registers every call it describes', async () => {
    for (const [name, spec] of CALLS) {
      const found = t.app.hasRoute({ method: spec.method, url: `/api${spec.path}` });
      expect(found, name).toBe(true);
    }
  });

  it.each([
    'GET /api/chat/conversations/1/stream?offset=-1',
    'POST /api/chat/upload-image?x=1',
    'POST /api/chat/files?x=1',
    'GET /api/admin/users/export.csv?status=nope&group_id=x',
    'POST /api/admin/users/import?dry_run=maybe',
    'GET /api/admin/audit-logs/export.csv?from=nope',
    'GET /api/admin/stats/export.csv?days=-3',
    'GET /api/auth/export?x=1',
    'GET /api/admin/users/1/export?reason=',
    'POST /api/admin/settings/upload-logo',
  ])('%s: 401 to an anonymous caller before its query is read', async (route) => {
    const [method, url] = route.split(' ') as ['GET' | 'POST', string];
    const res = await t.request(method, url);
    expect(res.status, res.text.slice(0, 200)).toBe(401);
  });

  describe.each(CALLS.filter(([, spec]) => spec.access !== 'public' && spec.access !== 'optional'))(
    '%s',
    (name, spec) => {
      it('answers 401 to an anonymous caller, whatever the body and query', async () => {
        const res = await t.request(spec.method, urlOf(spec) + BAD_QUERY, { body: spec.body ? [] : undefined });
        expect(res.status, `${name}: ${res.text.slice(0, 200)}`).toBe(401);
        expect(res.body.error).toBe('UNAUTHORIZED');
      });

      const access = spec.access;
      const action = access === 'public' || access === 'optional' || access === 'signedIn' ? undefined : access;
      if (action && scopeOf(ROLE_PERMISSIONS.user, action) === 'none') {
        it('answers 403 to a user without the action, before reading the body', async () => {
          const res = await t.request(spec.method, urlOf(spec) + BAD_QUERY, {
            body: spec.body ? [] : undefined,
            token: plain,
          });
          expect(res.status, `${name}: ${res.text.slice(0, 200)}`).toBe(403);
          expect(res.body.error).toBe('FORBIDDEN');
        });
      }
    },
  );
});
