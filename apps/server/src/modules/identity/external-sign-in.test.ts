import type { LoginResult } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditHeadSeq,
  auditRowsAfter,
  countRows,
  createGroupAsAdmin,
  createUserAsAdmin,
  ledgerRows,
} from '../../../test/admin-helpers.js';
import { createProvider, uniqueSlug } from '../../../test/identity-helpers.js';
import { type TestApp, createTestApp, unique } from '../../../test/test-app.js';
import type { ExternalProfile } from './external-profile.js';
import type { ProviderRecord } from './provider-record.js';

const CLIENT = { ip: '198.51.100.7', userAgent: 'sso-test' };

/** A person as a provider would describe them; a new subject each time unless given. */
function person(overrides: Partial<ExternalProfile> = {}): ExternalProfile {
  const id = unique();
  return {
    subject: `sub-${id}`,
    email: `sso_${id}@corp.example`,
    emailVerified: true,
    username: `sso_${id}`.slice(0, 20),
    name: 'Someone',
    groups: [],
    claims: {},
    ...overrides,
  };
}

describe('signing in through an identity provider', () => {
  let t: TestApp;
  let superToken: string;

  beforeAll(async () => {
    t = await createTestApp();
    superToken = (await t.loginAsAdmin()).accessToken;
  });
  afterAll(async () => {
    await t.close();
  });

  async function provider(overrides: Record<string, unknown> = {}): Promise<ProviderRecord> {
    const created = await createProvider(t, superToken, {
      type: 'oidc',
      slug: uniqueSlug('p-'),
      name: 'Corp',
      config: { issuer: 'https://login.example.com', client_id: 'x' },
      ...overrides,
    });
    return (await t.identity.providers.byId(created.id))!;
  }

  const signIn = (p: ProviderRecord, profile: ExternalProfile) => t.identity.signIn.signIn(p, profile, CLIENT);
  const refusal = async (p: ProviderRecord, profile: ExternalProfile) => {
    try {
      await signIn(p, profile);
    } catch (err) {
      return (err as { code?: string }).code;
    }
    return 'signed in';
  };

  it('creates an account at the first sign-in with jit, in the default group with opening credits, and finds it again', async () => {
    const group = await createGroupAsAdmin(t, superToken);
    const p = await provider({ jit: true, default_group_id: group.id });
    const profile = person();
    const first: LoginResult = await signIn(p, profile);
    expect(first.user.email).toBe(profile.email);
    expect(first.user.group_id).toBe(group.id);
    expect(first.accessToken).toBeTruthy();
    const ledger = await ledgerRows(t, first.user.id);
    expect(ledger.map((r) => r.transaction_type)).toEqual(['system_reward']);
    const users = await countRows(t, 'users');
    const again = await signIn(p, { ...profile, email: `changed_${profile.email}` });
    expect(again.user.id).toBe(first.user.id);
    expect(await countRows(t, 'users')).toBe(users);
  });

  it('refuses an unknown person without jit, creating nothing', async () => {
    const p = await provider({ jit: false });
    const users = await countRows(t, 'users');
    expect(await refusal(p, person())).toBe('SSO_NOT_PROVISIONED');
    expect(await countRows(t, 'users')).toBe(users);
  });

  it('admits only the groups a provider requires, new and returning people alike', async () => {
    const p = await provider({ jit: true, mapping: { required_groups: ['chat-users', 'cn=ai,ou=groups'] } });
    const users = await countRows(t, 'users');
    expect(await refusal(p, person({ groups: ['sales'] }))).toBe('SSO_GROUP_REQUIRED');
    expect(await refusal(p, person())).toBe('SSO_GROUP_REQUIRED');
    expect(await countRows(t, 'users')).toBe(users);
    const member = person({ groups: ['sales', 'cn=ai,ou=groups'] });
    const first = await signIn(p, member);
    expect(first.user.email).toBe(member.email);
    // Taken out of the group at the directory: the account stays, the way in closes.
    expect(await refusal(p, { ...member, groups: ['sales'] })).toBe('SSO_GROUP_REQUIRED');
  });

  it('links to a local account by email only when the provider vouches for it and linking is on', async () => {
    const local = await createUserAsAdmin(t, superToken);
    const linking = await provider({ jit: true, link_verified_email: true });
    const notLinking = await provider({ jit: true, link_verified_email: false });
    const users = await countRows(t, 'users');

    expect(await refusal(linking, person({ email: local.email, emailVerified: false }))).toBe('SSO_EMAIL_CONFLICT');
    expect(await refusal(notLinking, person({ email: local.email, emailVerified: true }))).toBe('SSO_EMAIL_CONFLICT');
    expect(await countRows(t, 'users')).toBe(users);
    expect(await t.db.selectFrom('user_identities').selectAll().where('user_id', '=', local.id).execute()).toEqual([]);

    const linked = await signIn(linking, person({ email: local.email.toUpperCase(), emailVerified: true }));
    expect(linked.user.id).toBe(local.id);
    expect(await countRows(t, 'users')).toBe(users);
  });

  it('moves the user to the first mapped group at every sign-in, unless an administrator pinned the group', async () => {
    const [engineers, sales] = [await createGroupAsAdmin(t, superToken), await createGroupAsAdmin(t, superToken)];
    const p = await provider({
      jit: true,
      mapping: {
        group_map: [
          { value: 'eng', group_id: engineers.id },
          { value: 'sales', group_id: sales.id },
        ],
      },
    });
    const profile = person({ groups: ['sales', 'eng'] });
    const first = await signIn(p, profile);
    expect(first.user.group_id).toBe(engineers.id);
    const moved = await signIn(p, { ...profile, groups: ['sales'] });
    expect(moved.user.group_id).toBe(sales.id);

    const pin = await t.put(
      `/api/admin/users/${first.user.id}`,
      { group_id: engineers.id, group_pinned: true },
      superToken,
    );
    expect(pin.status, pin.text).toBe(200);
    expect(pin.body).toMatchObject({ data: { group_pinned: true } });
    const pinned = await signIn(p, { ...profile, groups: ['sales'] });
    expect(pinned.user.group_id).toBe(engineers.id);
  });

  it('keeps the person in their group when the mapped group is full', async () => {
    const full = await createGroupAsAdmin(t, superToken, { user_limit: 1 });
    await createUserAsAdmin(t, superToken, { group_id: full.id });
    const p = await provider({ jit: true, mapping: { group_map: [{ value: 'x', group_id: full.id }] } });
    const res = await signIn(p, person({ groups: ['x'] }));
    expect(res.user.group_id).not.toBe(full.id);
  });

  it('grants and withdraws the group administrator role by role_map, never touching a super administrator', async () => {
    const p = await provider({
      jit: true,
      link_verified_email: true,
      mapping: { role_map: [{ value: 'admins', role: 'admin' }] },
    });
    const profile = person({ groups: ['admins'] });
    const seq = await auditHeadSeq(t);
    const granted = await signIn(p, profile);
    expect(granted.user.role).toBe('admin');
    // The account opened and the role granted by the provider are both on record.
    const rows = await auditRowsAfter(t, seq);
    expect(rows.map((r) => [r.action, r.actor_id, r.target_id])).toEqual([
      ['user.sso_create', granted.user.id, String(granted.user.id)],
      ['user.sso_mapping', granted.user.id, String(granted.user.id)],
    ]);
    expect(rows[1]!.changes).toMatchObject({ before: { role: 'user' }, after: { role: 'admin', provider: p.slug } });
    expect((await signIn(p, { ...profile, groups: [] })).user.role).toBe('user');

    const superAdmin = await t.db
      .selectFrom('users')
      .selectAll()
      .where('role', '=', 'super_admin')
      .executeTakeFirstOrThrow();
    const asSuper = await signIn(p, person({ email: superAdmin.email, groups: [] }));
    expect(asSuper.user.role).toBe('super_admin');
    expect((await t.userRow(superAdmin.id)).role).toBe('super_admin');
  });

  it('refuses a disabled account and a disabled provider', async () => {
    const p = await provider({ jit: true });
    const profile = person();
    const { user } = await signIn(p, profile);
    await t.setUserStatus(user.id, 'inactive');
    expect(await refusal(p, profile)).toBe('ACCOUNT_DISABLED');
    await t.setUserStatus(user.id, 'active');

    const off = await provider({ jit: true, enabled: false });
    expect(await refusal(off, person())).toBe('SSO_PROVIDER_DISABLED');
  });
});
