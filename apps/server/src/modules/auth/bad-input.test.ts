import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HOSTILE_STRINGS,
  NOT_OBJECTS,
  PARSE_CASES,
  WRONG_TYPES,
  expectErrorEnvelope,
} from '../../../test/bad-input.js';
import { type Credentials, type TestApp, createTestApp } from '../../../test/test-app.js';

/**
 * Whatever a client sends, the answer is a 4xx error envelope — never a 5xx, never a
 * stack trace, never a success for a body that breaks the contract.
 */
interface Route {
  method: 'POST' | 'PUT';
  url: string;
  signedIn?: boolean;
  /** 'json': a zod-checked body; 'none': no body expected; 'multipart': a file upload. */
  kind: 'json' | 'none' | 'multipart';
  /** A body that passes validation, mutated one field at a time. */
  valid?: Record<string, unknown>;
  /** Fields for which null is a valid value. */
  nullable?: string[];
}

const ROUTES: Route[] = [
  { method: 'POST', url: '/api/auth/login', kind: 'json', valid: { account: 'someone', password: 'secret123' } },
  { method: 'POST', url: '/api/auth/login-by-code', kind: 'json', valid: { email: 'a@example.com', code: '123456' } },
  {
    method: 'POST',
    url: '/api/auth/login-by-email-password',
    kind: 'json',
    valid: { email: 'a@example.com', password: 'secret123', code: '123456' },
  },
  { method: 'POST', url: '/api/auth/send-email-code', kind: 'json', valid: { email: 'a@example.com' } },
  { method: 'POST', url: '/api/auth/refresh', kind: 'json', valid: { refreshToken: 'abc' } },
  {
    method: 'POST',
    url: '/api/auth/register',
    kind: 'json',
    valid: {
      email: 'new@example.com',
      username: 'new_user',
      password: 'secret123',
      confirmPassword: 'secret123',
      phone: null,
    },
    nullable: ['phone'],
  },
  { method: 'POST', url: '/api/auth/check-email', kind: 'json', valid: { email: 'a@example.com' } },
  { method: 'POST', url: '/api/auth/check-username', kind: 'json', valid: { username: 'someone' } },
  {
    method: 'PUT',
    url: '/api/auth/profile',
    signedIn: true,
    kind: 'json',
    valid: { username: 'renamed', phone: null },
    nullable: ['phone'],
  },
  {
    method: 'PUT',
    url: '/api/auth/password',
    signedIn: true,
    kind: 'json',
    valid: { oldPassword: 'secret123', newPassword: 'secret456', confirmPassword: 'secret456' },
  },
  { method: 'POST', url: '/api/auth/logout', signedIn: true, kind: 'none' },
  { method: 'POST', url: '/api/auth/avatar', signedIn: true, kind: 'multipart' },
];

describe('bad input on every POST/PUT', () => {
  let t: TestApp;
  let user: Credentials;
  beforeAll(async () => {
    t = await createTestApp();
    user = await t.registerUser({ username: 'someone', password: 'secret123' });
  });
  afterAll(async () => {
    await t.close();
  });

  /** A session of its own per call, so that nothing one case does spoils the next. */
  async function tokenFor(route: Route) {
    return route.signedIn ? (await t.tokensFor(user.email, user.password)).accessToken : undefined;
  }

  describe.each(ROUTES)('$method $url', (route) => {
    it('answers unparsable, poisoned and oversized bodies with a 4xx envelope', async () => {
      const token = await tokenFor(route);
      for (const [name, payload, headers, status, code] of PARSE_CASES) {
        const res = await t.request(route.method, route.url, { payload, headers, token });
        expectErrorEnvelope(res, name);
        expect(res.status, name).toBe(status);
        expect(res.body.error, name).toBe(code);
      }
    });
  });

  describe.each(ROUTES.filter((r) => r.kind !== 'none'))('$method $url', (route) => {
    it('refuses a body that is not the expected object', async () => {
      const token = await tokenFor(route);
      for (const [payload, type] of NOT_OBJECTS) {
        const res = await t.request(route.method, route.url, { payload, headers: { 'content-type': type }, token });
        expectErrorEnvelope(res, payload);
        expect(res.body.error, payload).toBe(
          route.kind === 'multipart' ? 'UNSUPPORTED_MEDIA_TYPE' : 'VALIDATION_FAILED',
        );
      }
    });
  });

  describe.each(ROUTES.filter((r) => r.kind === 'json'))('$method $url', (route) => {
    const valid = route.valid ?? {};

    it('refuses a wrong type, naming the problem', async () => {
      const token = await tokenFor(route);
      for (const field of Object.keys(valid)) {
        for (const [name, value] of WRONG_TYPES) {
          if (value === null && route.nullable?.includes(field)) continue;
          const res = await t.request(route.method, route.url, { body: { ...valid, [field]: value }, token });
          expectErrorEnvelope(res, `${field} as ${name}`);
          expect(res.body.error, `${field} as ${name}`).toBe('VALIDATION_FAILED');
          expect(res.body.data.errors?.length, `${field} as ${name}`).toBeGreaterThan(0);
        }
      }
    });

    it('answers hostile strings in any field with a 4xx, never a 5xx or a success', async () => {
      const token = await tokenFor(route);
      for (const field of Object.keys(valid)) {
        for (const [name, value] of HOSTILE_STRINGS) {
          const res = await t.request(route.method, route.url, { body: { ...valid, [field]: value }, token });
          expectErrorEnvelope(res, `${field} as ${name}`);
        }
      }
    });
  });

  it('refuses a NUL character before it reaches the database, naming the field', async () => {
    const res = await t.post('/api/auth/check-email', { email: 'a\u0000b@example.com' }, undefined, 'en-US');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('VALIDATION_FAILED');
    expect(res.body.data.errors).toEqual(['Field email has an invalid format']);
  });

  it('refuses a bad page or limit on GET /api/auth/credit-history', async () => {
    const token = (await t.tokensFor(user.email, user.password)).accessToken;
    for (const query of ['page=0', 'page=-1', 'page=1.5', 'page=abc', 'page=1e400', 'limit=0', 'limit=x', 'page=%00']) {
      const res = await t.get(`/api/auth/credit-history?${query}`, token);
      expectErrorEnvelope(res, query);
      expect(res.body.error, query).toBe('VALIDATION_FAILED');
    }
  });

  it('left every account as it was', async () => {
    const users = await t.db.selectFrom('users').select(['username', 'email', 'role']).orderBy('id').execute();
    expect(users).toEqual([
      { username: 'admin', email: t.admin.email, role: 'super_admin' },
      { username: 'someone', email: user.email, role: 'user' },
    ]);
  });
});
