import type { UserRow } from '../../db/types.js';
import type { ExternalProfile } from './external-profile.js';
import type { ProviderRecord } from './provider-record.js';

/** What the database holds about a profile, read before deciding (nothing is written here). */
export interface AccountFacts {
  /** The account the identity (provider, subject) is linked to; absent when unlinked or retired. */
  linked?: UserRow;
  /** The live account holding the profile's email, when no identity is linked. */
  emailHolder?: UserRow;
  /** The site's default group, where a new account goes when the provider names none. */
  siteDefaultGroupId: number;
}

/**
 * Which account a profile signs in as. The sign-in carries it out; the administrator's test
 * sign-in only reports it. The refusals are named: `conflict` (the email belongs to an
 * account the provider may not take over), `not_provisioned`, `not_allowed` (not in a group
 * the provider requires), `disabled`.
 */
export type AccountDecision =
  | { account: 'existing' | 'link'; user: UserRow }
  | { account: 'create'; groupId: number }
  | { account: 'conflict' | 'not_provisioned' | 'not_allowed' }
  | { account: 'disabled'; user: UserRow };

/** The profile's email as accounts store it, or undefined. */
export const normalizedEmail = (profile: ExternalProfile) => profile.email?.trim().toLowerCase() || undefined;

/**
 * 0. when the provider requires groups, a person carrying none of them goes no further,
 *    whatever account they have: leaving the group at the directory ends their access;
 * 1. the identity (provider, subject) already linked → its account;
 * 2. else an account with the profile's email → linked only when the provider vouches for
 *    the email (`emailVerified`) and the provider allows linking (`link_verified_email`):
 *    otherwise anybody able to register that address at the provider would take the account
 *    over;
 * 3. else, with `jit` and an email, a new account in the provider's default group (the
 *    site's without one); otherwise nobody.
 * An account found but not active is refused.
 */
export function decideAccount(
  provider: ProviderRecord,
  profile: ExternalProfile,
  facts: AccountFacts,
): AccountDecision {
  const active = (account: 'existing' | 'link', user: UserRow): AccountDecision =>
    user.status === 'active' ? { account, user } : { account: 'disabled', user };
  const required = provider.mapping.required_groups;
  if (required.length > 0 && !required.some((value) => profile.groups.includes(value)))
    return { account: 'not_allowed' };
  if (facts.linked) return active('existing', facts.linked);
  if (facts.emailHolder) {
    if (!profile.emailVerified || !provider.link_verified_email) return { account: 'conflict' };
    return active('link', facts.emailHolder);
  }
  if (!provider.jit || !normalizedEmail(profile)) return { account: 'not_provisioned' };
  return { account: 'create', groupId: provider.default_group_id ?? facts.siteDefaultGroupId };
}

export interface MappedAccess {
  /** The group the first matching `group_map` entry names; null when none matches or the group is pinned. */
  groupId: number | null;
  /** What `role_map` gives; null when it is empty or the account is a super administrator. */
  role: 'admin' | 'user' | null;
}

/**
 * The group and role the provider's mappings give a person carrying `profile.groups`. A
 * super administrator's role is never touched, and no mapping can grant it (only 'admin'
 * can be mapped). `user` is absent for an account still to be created.
 */
export function mappedAccess(
  provider: ProviderRecord,
  profile: ExternalProfile,
  user?: Pick<UserRow, 'group_pinned' | 'role'>,
): MappedAccess {
  const carried = new Set(profile.groups);
  const groupEntry = provider.mapping.group_map.find((g) => carried.has(g.value));
  const groupId = groupEntry && user?.group_pinned !== 1 ? groupEntry.group_id : null;
  const role =
    provider.mapping.role_map.length > 0 && user?.role !== 'super_admin'
      ? provider.mapping.role_map.some((r) => carried.has(r.value))
        ? 'admin'
        : 'user'
      : null;
  return { groupId, role };
}
