import type { IdentityProvider, IdentityProviderTestResult, LoginResult, SsoPreviewStart } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroupAsAdmin } from '../../../../test/admin-helpers.js';
import { freePort } from '../../../../test/free-port.js';
import { FrozenClock } from '../../../../test/frozen-clock.js';
import {
  GROUPS,
  GROUPS_DN,
  PEOPLE,
  PEOPLE_DN,
  READER,
  type Slapd,
  slapdMissing,
  startSlapd,
} from '../../../../test/slapd.js';
import { type TestApp, createTestApp, unique } from '../../../../test/test-app.js';

const LOGIN = '/api/auth/login';
const PROVIDERS = '/api/admin/identity-providers';
/** Addresses outside the trusted networks (loopback), from the documentation ranges. */
const address = (i: number) => `192.0.2.${i}`;

describe.skipIf(slapdMissing !== undefined)(
  `signing in with an LDAP provider${slapdMissing ? ` (skipped: ${slapdMissing})` : ''}`,
  () => {
    let slapd: Slapd;
    let t: TestApp;
    let superToken: string;
    let slug: string;
    let providerId: number;
    let adminsGroup: number;
    let engineeringGroup: number;

    async function createProvider(config: Record<string, unknown>, overrides: Record<string, unknown> = {}) {
      const res = await t.post<IdentityProvider>(
        PROVIDERS,
        {
          type: 'ldap',
          slug: `ldap-${unique().toLowerCase()}`,
          name: 'Directory',
          config: {
            url: slapd.url,
            bind_dn: READER.dn,
            bind_password: READER.password,
            user_base: PEOPLE_DN,
            group_base: GROUPS_DN,
            group_filter: '(member={dn})',
            ...config,
          },
          mapping: {
            group_map: [
              { value: GROUPS.admins, group_id: adminsGroup },
              { value: GROUPS.engineering, group_id: engineeringGroup },
            ],
            role_map: [{ value: GROUPS.admins, role: 'admin' }],
          },
          jit: true,
          ...overrides,
        },
        superToken,
      );
      expect(res.status, res.text).toBe(201);
      return res.body.data;
    }

    const login = (account: string, password: string, provider: string, from?: string) =>
      t.request<LoginResult>('POST', LOGIN, { body: { account, password, provider }, remoteAddress: from });

    beforeAll(async () => {
      slapd = await startSlapd();
      // The configured attempt limits (scale 1), and a clock that moves only when told.
      t = await createTestApp({ config: { rateLimitScale: 1 }, clock: new FrozenClock() });
      superToken = (await t.loginAsAdmin()).accessToken;
      adminsGroup = (await createGroupAsAdmin(t, superToken)).id;
      engineeringGroup = (await createGroupAsAdmin(t, superToken)).id;
      const settings = await t.put('/api/admin/settings', { security: { max_login_attempts: 3 } }, superToken);
      expect(settings.status, settings.text).toBe(200);
      const provider = await createProvider({});
      slug = provider.slug;
      providerId = provider.id;
    }, 30_000);

    afterAll(async () => {
      await t?.close();
      await slapd?.stop();
    });

    it('creates the account at the first sign-in, with the group and role its directory groups map to', async () => {
      const first = await login('alice', PEOPLE.alice.password, slug);
      expect(first.status, first.text).toBe(200);
      expect(first.body.data.user).toMatchObject({
        email: PEOPLE.alice.mail,
        username: 'alice',
        role: 'admin',
        group_id: adminsGroup,
      });
      const me = await t.get('/api/auth/me', first.body.data.accessToken);
      expect(me.status).toBe(200);

      // By mail the next time: the same directory entry, so the same account.
      const again = await login(PEOPLE.alice.mail, PEOPLE.alice.password, slug);
      expect(again.status, again.text).toBe(200);
      expect(again.body.data.user.id).toBe(first.body.data.user.id);

      const bob = await login('bob', PEOPLE.bob.password, slug);
      expect(bob.body.data.user).toMatchObject({ email: PEOPLE.bob.mail, role: 'user', group_id: engineeringGroup });
    });

    it('answers a wrong password and an unknown login alike, and holds back further guesses like local ones', async () => {
      const from = address(10);
      const wrong = await login('bob', 'not-bobs-password', slug, from);
      const unknown = await login('nobody', 'whatever', slug, address(11));
      expect([wrong.status, wrong.body.error]).toEqual([401, 'INVALID_CREDENTIALS']);
      expect([unknown.status, unknown.body.error, unknown.body.message]).toEqual([
        401,
        'INVALID_CREDENTIALS',
        wrong.body.message,
      ]);
      for (let i = 0; i < 2; i += 1) expect((await login('bob', `guess-${i}`, slug, from)).status).toBe(401);
      // Three failures reached the limit: even the right password waits now.
      const held = await login('bob', PEOPLE.bob.password, slug, from);
      expect([held.status, held.body.error]).toEqual([429, 'LOGIN_DELAYED']);
    });

    it('answers 503 DIRECTORY_UNAVAILABLE while the directory is unreachable, without counting it as a guess', async () => {
      const down = await createProvider({ url: `ldap://127.0.0.1:${await freePort()}` });
      const from = address(20);
      for (let i = 0; i < 5; i += 1) {
        const res = await login('alice', PEOPLE.alice.password, down.slug, from);
        expect([res.status, res.body.error]).toEqual([503, 'DIRECTORY_UNAVAILABLE']);
      }
      const test = await t.post<IdentityProviderTestResult>(`${PROVIDERS}/${down.id}/test`, undefined, superToken);
      expect(test.body.data).toMatchObject({ ok: false, details: { step: 'connect' } });
    });

    it('refuses a provider that does not exist, is switched off or is not LDAP', async () => {
      expect((await login('alice', PEOPLE.alice.password, 'no-such-provider')).body.error).toBe(
        'SSO_PROVIDER_DISABLED',
      );
      const off = await createProvider({}, { enabled: false });
      expect((await login('alice', PEOPLE.alice.password, off.slug)).body.error).toBe('SSO_PROVIDER_DISABLED');
      const oidc = await t.post<IdentityProvider>(
        PROVIDERS,
        {
          type: 'oidc',
          slug: `oidc-${unique().toLowerCase()}`,
          name: 'OIDC',
          config: { issuer: 'https://login.example.com', client_id: 'aiplatform', client_secret: 'x' },
        },
        superToken,
      );
      expect((await login('alice', PEOPLE.alice.password, oidc.body.data.slug)).body.error).toBe(
        'SSO_PROVIDER_DISABLED',
      );
    });

    it('still signs people in through the directory when local passwords are kept for super administrators', async () => {
      const res = await t.put('/api/admin/settings', { login: { local_password: 'super_admin_only' } }, superToken);
      expect(res.status, res.text).toBe(200);
      try {
        expect((await login('bob', PEOPLE.bob.password, slug)).status).toBe(200);
      } finally {
        await t.put('/api/admin/settings', { login: { local_password: 'all' } }, superToken);
      }
    });

    it('tests the connection with the stored bind password', async () => {
      const res = await t.post<IdentityProviderTestResult>(`${PROVIDERS}/${providerId}/test`, undefined, superToken);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data).toMatchObject({ ok: true, details: { entries_found: 3 } });
    });

    it("previews a test sign-in with the person's password, changing nothing", async () => {
      const fresh = await createProvider({});
      const users = await t.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      const preview = (password: string) =>
        t.post<SsoPreviewStart>(`${PROVIDERS}/${fresh.id}/preview`, { login: 'alice', password }, superToken);
      const res = await preview(PEOPLE.alice.password);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.url).toBeNull();
      expect(res.body.data.preview).toMatchObject({
        username: 'alice',
        email: PEOPLE.alice.mail,
        // Alice's account (signed in through the first provider) holds the email; this provider may not link it.
        outcome: { account: 'conflict', group_id: adminsGroup, role: 'admin' },
      });
      expect(res.body.data.preview?.groups).toContain(GROUPS.admins);
      expect(JSON.stringify(res.body.data.preview)).not.toContain(PEOPLE.alice.password);
      expect((await preview('wrong-password')).status).toBe(401);
      const after = await t.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(users.n));
    });
  },
);
