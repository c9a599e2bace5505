import {
  ADMIN_CALLS,
  AUDIT_CHECKPOINT_FORMAT,
  ADMIN_FILE_PATHS,
  type CallBody,
  type CallSpec,
  callPath,
} from '@aiplatform/contracts';
import type { z } from 'zod';

type AdminCallName = keyof typeof ADMIN_CALLS;
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, createGroupAsAdmin, createUserAsAdmin } from '../../../test/admin-helpers.js';
import { NOT_OBJECTS, PARSE_CASES, WRONG_TYPES, expectErrorEnvelope } from '../../../test/bad-input.js';
import { type ApiResponse, type TestApp, createTestApp, multipartFile } from '../../../test/test-app.js';

/**
 * Every admin call, taken from the contract's map so that a new call is covered as soon
 * as it exists: whatever is sent, the answer is a 4xx envelope (never a 5xx), anonymous
 * callers get 401 and plain users 403.
 */

type CallsWithBody = {
  [K in AdminCallName]: (typeof ADMIN_CALLS)[K] extends { body: z.ZodType } ? K : never;
}[AdminCallName];

/** A body each call accepts; the compiler insists on one for every call that takes a body. */
const VALID_BODIES: (ids: { user: number; member: number; group: number; doomed: number }) => {
  [K in CallsWithBody]: CallBody<K>;
} = (ids) => ({
  createUser: {
    username: 'bad_input_new',
    email: 'bad-input-new@example.com',
    password: 'secret123',
    group_id: ids.group,
  },
  updateUser: { remark: 'checked', group_id: ids.group },
  setUserStatus: { status: 'active' },
  resetPassword: { newPassword: 'secret456' },
  eraseUser: { reason: 'bad input' },
  bulkUsers: { ids: [ids.user], action: 'move', group_id: ids.group },
  adjustCredits: { operation: 'add', amount: 1, reason: 'bad input' },
  createGroup: { name: 'bad input group' },
  updateGroup: { description: 'checked' },
  setCreditsPool: { credits_pool: 10 },
  setUserLimit: { user_limit: null },
  setGroupSiteConfig: { site_name: null, site_logo: null, enabled: false },
  distributeCredits: { user_id: ids.member, amount: 1, reason: 'bad input' },
  createModel: { name: 'bad-input-model', provider: 'openai_compatible' },
  updateModel: { display_name: 'checked' },
  sortModels: { sort_orders: [{ id: 1, sort_order: 1 }] },
  setModelGroups: { group_ids: [] },
  discoverModels: { provider: 'openai_compatible', api_endpoint: 'http://127.0.0.1:9/v1' },
  createModule: { name: 'bad-input-module', display_name: 'Bad input', module_url: 'https://example.com' },
  updateModule: { description: 'checked' },
  updateSettings: { site: { description: 'checked' } },
  updateHomepage: { enabled: false },
  updateAnnouncement: { content: 'checked' },
  updateGroupAnnouncement: { content: 'checked' },
  // Well formed, but signed by nobody: the server refuses it with 400.
  verifyAuditCheckpoint: {
    format: AUDIT_CHECKPOINT_FORMAT,
    count: 1,
    last_id: 1,
    hash: 'a'.repeat(64),
    created_at: '2024-01-01T00:00:00.000Z',
    signature: 'b'.repeat(64),
  },
});

/** Query strings no list may answer with a 5xx; the contract falls back to defaults for each. */
const QUERY_CASES = [
  'limit=99999999999',
  'sort=password_hash',
  'sort=-id;drop table users',
  `search=${'a'.repeat(5000)}`,
  "search=' OR 1=1 --",
  'role=god',
  'status=deleted',
  'type=bogus',
  'from=yesterday',
  'to=2024-13-45T99:99:99Z',
  'limit[]=5',
];

/**
 * Numbers out of range or not numbers at all, for every numeric query field of the admin
 * calls: refused with 400 naming the field, in the caller's language (a `limit` over the
 * maximum is clamped instead, above).
 */
const BAD_NUMBERS: Record<string, string[]> = {
  page: ['abc', '-1', '0', '1.5', '1e400', '99999999999', ''],
  limit: ['0', '-5', 'abc', '2.5'],
  group_id: ['abc', '-1', '0', '99999999999'],
  actor_id: ['abc', '0', '99999999999'],
  days: ['-3', '0', '367', 'abc', '7.5'],
};
/** The numeric query fields each schema declares, read from the schema itself. */
const numericFieldsOf = (spec: CallSpec) =>
  Object.keys(BAD_NUMBERS).filter((f) => f in ((spec.query as { shape?: object } | undefined)?.shape ?? {}));

const BAD_IDS = ['abc', '-1', '0', '1.5', '99999999999', '2147483648', '\u0000', ' ', '1/../2'];
const HUGE_NUMBERS: unknown[] = [1e308, -1e308, 2 ** 53 + 1, 99_999_999_999, 2_147_483_648];

const CALLS = Object.entries(ADMIN_CALLS) as [AdminCallName, CallSpec][];

/** Calls any signed-in user may make (the chat page shows the system announcement). */
const SIGNED_IN_CALLS: ReadonlySet<AdminCallName> = new Set(
  CALLS.filter(([, s]) => s.access === 'signedIn').map(([n]) => n),
);

/**
 * Calls whose sample body makes the server call an outside address (an unreachable one):
 * for these an accepted body may fairly answer 502 UPSTREAM_UNREACHABLE, still an envelope.
 */
const REACHES_OUT: ReadonlySet<AdminCallName> = new Set(['discoverModels']);

describe('admin calls refuse bad input', () => {
  let t: TestApp;
  let admin: string;
  let plain: string;
  let ids: { user: number; member: number; group: number; doomed: number };
  let bodies: ReturnType<typeof VALID_BODIES>;

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.loginAsAdmin()).accessToken;
    const group = await createGroupAsAdmin(t, admin);
    const user = await createUserAsAdmin(t, admin);
    const member = await createUserAsAdmin(t, admin, { group_id: group.id });
    // Erasure's accepted bodies erase their target: an account of its own, not the one the other calls use.
    const doomed = await createUserAsAdmin(t, admin);
    ids = { user: user.id, member: member.id, group: group.id, doomed: doomed.id };
    bodies = VALID_BODIES(ids);
    plain = (await t.signUp()).session.accessToken;
  });
  afterAll(async () => {
    await t.close();
  });

  const idFor = (spec: CallSpec) =>
    spec.path.startsWith('/admin/user-groups/') ? ids.group : spec.path.endsWith('/erase') ? ids.doomed : ids.user;
  const urlOf = (spec: CallSpec, id: string | number = idFor(spec)) =>
    `/api${spec.path.includes(':id') ? callPath(spec.path, { id }) : spec.path}`;
  /** An id that exists for the call's kind of object (a model and a module made on first use). */
  const made: Partial<Record<'models' | 'modules', number>> = {};
  async function existingIdFor(spec: CallSpec): Promise<number> {
    const kind = (['models', 'modules'] as const).find((k) => spec.path.startsWith(`/admin/${k}/`));
    if (!kind) return idFor(spec);
    const body =
      kind === 'models'
        ? { name: 'probe-model', provider: 'openai_compatible' }
        : { name: 'probe-module', display_name: 'Probe', module_url: 'https://example.com' };
    made[kind] ??= (await t.post<{ id: number }>(`/api/admin/${kind}`, body, admin)).body.data.id;
    return made[kind];
  }
  const bodyOf = (name: AdminCallName): Record<string, unknown> | undefined =>
    (bodies as Partial<Record<AdminCallName, Record<string, unknown>>>)[name];

  function send(
    spec: CallSpec,
    opts: { url?: string; body?: unknown; payload?: string; headers?: Record<string, string>; token?: string },
  ) {
    return t.request(spec.method, opts.url ?? urlOf(spec), {
      token: opts.token,
      ...(opts.body !== undefined ? { body: opts.body } : {}),
      ...(opts.payload !== undefined ? { payload: opts.payload } : {}),
      ...(opts.headers ? { headers: opts.headers } : {}),
    });
  }

  /** A body the schema refuses must be a 400 naming the problem; one it accepts must still never be a 5xx. */
  function expectRefusedOrHandled(name: AdminCallName, spec: CallSpec, body: unknown, res: ApiResponse, label: string) {
    const accepted = spec.body!.safeParse(body).success;
    if (accepted && REACHES_OUT.has(name) && res.status === 502) {
      expect(res.body, label).toMatchObject({ success: false, code: 502, error: 'UPSTREAM_UNREACHABLE' });
      return;
    }
    if (accepted) {
      expect(res.status, `${label}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
      if (res.status >= 400) expectErrorEnvelope(res, label);
      return;
    }
    expectErrorEnvelope(res, label);
    expect(res.status, label).toBe(400);
    expect(res.body.error, label).toBe('VALIDATION_FAILED');
    expect(res.body.data.errors?.length, label).toBeGreaterThan(0);
  }

  it('has a sample body for exactly the calls that take one', () => {
    expect(Object.keys(VALID_BODIES(ids)).sort()).toEqual(
      CALLS.filter(([, s]) => s.body)
        .map(([n]) => n)
        .sort(),
    );
    for (const [name, spec] of CALLS) if (spec.body) expect(spec.body.safeParse(bodyOf(name)).success, name).toBe(true);
  });

  describe.each(CALLS)('%s', (name, spec) => {
    it('answers 401 to an anonymous caller and 403 to a plain user', async () => {
      const body = bodyOf(name);
      const anonymous = await send(spec, { body });
      expectErrorEnvelope(anonymous, 'anonymous');
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.error).toBe('UNAUTHORIZED');
      const forged = await send(spec, { body, token: 'not.a.jwt' });
      expect(forged.status).toBe(401);

      const user = await send(spec, { body, token: plain });
      if (SIGNED_IN_CALLS.has(name)) {
        expect(user.status, user.text).toBe(200);
        return;
      }
      expectErrorEnvelope(user, 'plain user');
      expect(user.status, user.text).toBe(403);
      expect(user.body.error).toBe('FORBIDDEN');
    });

    if (spec.path.includes(':id') && !SIGNED_IN_CALLS.has(name))
      it('answers a plain user 403 whether or not the id exists', async () => {
        // A 404 for a missing id beside a 403 for an existing one would tell which ids exist.
        const body = bodyOf(name);
        for (const id of [await existingIdFor(spec), 2_147_483_647]) {
          const res = await send(spec, { url: urlOf(spec, id), body, token: plain });
          expectErrorEnvelope(res, `id ${id}`);
          expect(res.status, `id ${id}: ${res.text}`).toBe(403);
          expect(res.body.error, `id ${id}`).toBe('FORBIDDEN');
        }
      });

    if (spec.path.includes(':id'))
      it('refuses a bad id in the path with 400', async () => {
        const body = bodyOf(name);
        for (const id of BAD_IDS) {
          const res = await send(spec, { url: urlOf(spec, id), body, token: admin });
          expectErrorEnvelope(res, `id ${id}`);
          expect(res.status, `id ${id}`).toBe(400);
          expect(res.body.error, `id ${id}`).toBe('VALIDATION_FAILED');
        }
        // A well-formed id that names nothing is a 404 (a pool transfer may first say its user is no member).
        const missing = await send(spec, { url: urlOf(spec, 2_147_483_647), body, token: admin });
        expectErrorEnvelope(missing, 'missing id');
        if (name === 'distributeCredits') expect([400, 404]).toContain(missing.status);
        else expect(missing.status, missing.text).toBe(404);
      });

    if (spec.body)
      it('answers unparsable, poisoned and oversized bodies with a 4xx envelope', async () => {
        for (const [label, payload, headers, status, code] of PARSE_CASES) {
          const res = await send(spec, { payload, headers, token: admin });
          expectErrorEnvelope(res, label);
          expect(res.status, label).toBe(status);
          expect(res.body.error, label).toBe(code);
        }
      });

    if (spec.body)
      it('refuses a body that is not the expected object', async () => {
        for (const [payload, type] of NOT_OBJECTS) {
          const res = await send(spec, { payload, headers: { 'content-type': type }, token: admin });
          if (type === 'application/json') expectRefusedOrHandled(name, spec, JSON.parse(payload), res, payload);
          else {
            expectErrorEnvelope(res, payload);
            expect(res.body.error, payload).toBe('VALIDATION_FAILED');
          }
        }
      });

    if (spec.body)
      it('refuses wrong types, huge numbers and unknown fields', async () => {
        const valid = bodyOf(name)!;
        for (const field of Object.keys(valid)) {
          const original = valid[field];
          const variants: [string, unknown][] = [...WRONG_TYPES, ['string', 'text'], ['empty string', '']];
          if (typeof original === 'number')
            variants.push(...HUGE_NUMBERS.map((n): [string, unknown] => [`huge ${String(n)}`, n]));
          if (Array.isArray(original)) {
            variants.push(...HUGE_NUMBERS.map((n): [string, unknown] => [`array of huge ${String(n)}`, [n]]));
            variants.push(['empty array', []], ['array of 501', Array.from({ length: 501 }, (_, i) => i + 1)]);
          }
          for (const [label, value] of variants) {
            const body = { ...valid, [field]: value };
            const res = await send(spec, { body, token: admin });
            expectRefusedOrHandled(name, spec, body, res, `${field} as ${label}`);
          }
          // A number too large for JSON itself.
          const raw = JSON.stringify({ ...valid, [field]: 0 }).replace(`"${field}":0`, `"${field}":1e400`);
          const res = await send(spec, { payload: raw, headers: { 'content-type': 'application/json' }, token: admin });
          expectErrorEnvelope(res, `${field} as 1e400`);
        }
        // Unknown fields: refused where the contract is strict, otherwise dropped, never a 5xx.
        const withUnknown = { ...valid, password_hash: 'x', is_admin: true };
        expectRefusedOrHandled(
          name,
          spec,
          withUnknown,
          await send(spec, { body: withUnknown, token: admin }),
          'unknown fields',
        );
      });

    if (!spec.body)
      it('never answers a stray body with a 5xx', async () => {
        for (const [label, payload, headers] of PARSE_CASES) {
          const res = await send(spec, { payload, headers, token: plain });
          if (SIGNED_IN_CALLS.has(name)) expect(res.status, `${label}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
          else expectErrorEnvelope(res, label);
        }
      });

    if (spec.query)
      it('falls back to defaults for bad query values, never a 5xx', async () => {
        const base = urlOf(spec);
        for (const query of QUERY_CASES) {
          const res = await send(spec, { url: `${base}?${query}`, token: admin });
          expect(res.status, `${query}: ${res.text.slice(0, 300)}`).toBe(200);
          expect(res.body.success, query).toBe(true);
          if ('paginated' in spec) expect(res.body.pagination?.limit, query).toBeLessThanOrEqual(100);
        }
        // A NUL character never reaches the database.
        const nul = await send(spec, { url: `${base}?search=a%00b`, token: admin });
        expectErrorEnvelope(nul, 'NUL');
        expect(nul.status).toBe(400);
      });

    if (spec.query && numericFieldsOf(spec).length > 0)
      it(`refuses out-of-range numbers in ${numericFieldsOf(spec).join(', ')} with a translated 400`, async () => {
        const base = urlOf(spec);
        for (const field of numericFieldsOf(spec)) {
          for (const value of BAD_NUMBERS[field]!) {
            const query = `${field}=${value}`;
            const [en, zh] = await Promise.all(
              ['en-US', 'zh-CN'].map((lang) => t.request('GET', `${base}?${query}`, { token: admin, lang })),
            );
            expectErrorEnvelope(en!, query);
            expect(en!.status, `${query}: ${en!.text.slice(0, 200)}`).toBe(400);
            expect(en!.body.error, query).toBe('VALIDATION_FAILED');
            expect(en!.body.message, query).toContain(field);
            expect(zh!.body.message, query).not.toBe(en!.body.message);
          }
        }
      });
  });

  it('refuses a malformed Idempotency-Key', async () => {
    for (const [name, spec] of CALLS.filter(([n]) => n === 'adjustCredits' || n === 'distributeCredits')) {
      const res = await t.request('POST', urlOf(spec), {
        body: bodyOf(name),
        token: admin,
        headers: { 'idempotency-key': 'has spaces and ünïcode' },
      });
      expectErrorEnvelope(res, name);
      expect(res.status).toBe(400);
    }
  });

  describe('CSV routes', () => {
    const exportUrl = `/api${ADMIN_FILE_PATHS.usersExport}`;
    const importUrl = `/api${ADMIN_FILE_PATHS.usersImport}`;
    const csv = Buffer.from('username,email,password\nbad_csv_user,bad-csv@example.com,secret123\n');

    it('export: 401 anonymous, 403 plain user, defaults for bad filters', async () => {
      const anonymous = await t.get(exportUrl);
      expect(anonymous.status).toBe(401);
      expectErrorEnvelope(anonymous, 'anonymous');
      const user = await t.get(exportUrl, plain);
      expect(user.status).toBe(403);
      expectErrorEnvelope(user, 'plain user');
      for (const query of QUERY_CASES) {
        const res = await t.app.inject({
          method: 'GET',
          url: `${exportUrl}?${query}`,
          headers: { authorization: `Bearer ${admin}` },
        });
        expect(res.statusCode, `${query}: ${res.body.slice(0, 200)}`).toBe(200);
        expect(res.headers['content-type'], query).toMatch(/^text\/csv/);
      }
    });

    it('import: 401 anonymous, 403 plain user, 4xx for anything but one CSV file, nothing written', async () => {
      const before = await countRows(t, 'users');
      const file = multipartFile('file', 'users.csv', 'text/csv', csv);
      const anonymous = await t.request('POST', importUrl, file);
      expect(anonymous.status).toBe(401);
      const user = await t.request('POST', importUrl, { ...file, token: plain });
      expect(user.status).toBe(403);
      expectErrorEnvelope(user, 'plain user');

      const cases: [string, { payload?: string | Buffer; headers?: Record<string, string>; body?: unknown }, number][] =
        [
          ['JSON instead of a file', { body: { file: 'x' } }, 415],
          ['no body', { headers: { 'content-type': 'multipart/form-data; boundary=x' } }, 400],
          ['wrong field name', multipartFile('upload', 'users.csv', 'text/csv', csv), 400],
          [
            'binary garbage',
            multipartFile('file', 'users.csv', 'text/csv', Buffer.from([0, 159, 146, 150, 0, 1, 2, 34, 10, 34])),
            400,
          ],
          [
            'only a header',
            multipartFile('file', 'users.csv', 'text/csv', Buffer.from('username,email,password\n')),
            400,
          ],
          [
            'file over 2 MB',
            multipartFile('file', 'users.csv', 'text/csv', Buffer.alloc(2 * 1024 * 1024 + 10, 'a')),
            413,
          ],
          [
            'truncated multipart',
            {
              payload: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nabc',
              headers: { 'content-type': 'multipart/form-data; boundary=x' },
            },
            400,
          ],
        ];
      for (const [label, opts, status] of cases) {
        const res = await t.request('POST', `${importUrl}?dry_run=true`, { ...opts, token: admin });
        expectErrorEnvelope(res, label);
        expect(res.status, `${label}: ${res.text.slice(0, 200)}`).toBe(status);
      }
      // An unknown dry_run value is not a real run in disguise when the file is bad either way.
      const odd = await t.request('POST', `${importUrl}?dry_run=maybe`, {
        ...multipartFile('file', 'users.csv', 'text/csv', Buffer.from('username,email,password\nx,y,z\n')),
        token: admin,
      });
      expectErrorEnvelope(odd, 'dry_run=maybe');
      expect(await countRows(t, 'users')).toBe(before);
    });
  });
});
