import type { Kysely } from 'kysely';
import type { Database, GroupRow, UserRow, Db } from '../../db/types.js';
import { AppError } from '../../lib/http/errors.js';
import { hashPassword } from '../../lib/auth/passwords.js';
import type { GroupsRepo } from '../groups/groups.repo.js';
import { grantOpeningCredits } from './opening-credits.js';
import type { UsersRepo } from './users.repo.js';

export interface NewAccount {
  email: string;
  username: string;
  phone: string | null;
  role: UserRow['role'];
  groupId: number | null;
  /** The opening credits asked for; where they come from, if at all, is `grantOpeningCredits`'s rule. */
  credits: number;
  /**
   * Whether the site may grant them when the group has no pool: registration, start-up
   * and administrators who may adjust balances (`mayGrantOpeningCredits`).
   */
  siteMayGrant: boolean;
  /**
   * When the group's pool cannot cover them: refuse the account (an administrator can act
   * on that), or open it with none (self-registration: the visitor cannot).
   */
  whenPoolShort?: 'refuse' | 'open-empty';
  tokens: number;
  remark?: string | null;
  /** The administrator who created the account; null for registration and start-up. */
  operatorId?: number | null;
  grantDescription: string;
  now: string;
}

/**
 * Checks that a group can take one more member and holds its row lock until the
 * transaction ends, so two concurrent joins cannot both take the last place.
 * Returns the locked group, or undefined when it does not exist.
 */
export async function reserveGroupPlace(
  groups: GroupsRepo,
  groupId: number,
  trx: Db,
  now: string,
): Promise<GroupRow | undefined> {
  const group = await groups.lock(groupId, trx, now);
  if (!group) return undefined;
  if (group.user_limit !== null && (await groups.countMembers(groupId, trx)) >= group.user_limit) {
    throw new AppError('GROUP_FULL');
  }
  return group;
}

/**
 * Inserts a user inside the caller's transaction and writes the opening credits as a
 * `system_reward` ledger row, so that from the first day the ledger sum equals the
 * balance; a group with a pool pays them (opening-credits.ts). A group that does not
 * exist leaves the user without a group; a full one refuses with GROUP_FULL.
 */
export async function insertAccount(
  trx: Db,
  repos: { users: UsersRepo; groups: GroupsRepo },
  a: NewAccount & { passwordHash: string },
): Promise<number> {
  const group = a.groupId === null ? undefined : await reserveGroupPlace(repos.groups, a.groupId, trx, a.now);
  const id = await repos.users.insert(
    {
      email: a.email.toLowerCase(),
      username: a.username,
      phone: a.phone,
      password_hash: a.passwordHash,
      role: a.role,
      status: 'active',
      group_id: group ? group.id : null,
      avatar_url: null,
      credits_quota: 0,
      credits_used: 0,
      credits_expire_at: null,
      token_quota: a.tokens,
      token_used: 0,
      remark: a.remark ?? null,
      created_at: a.now,
      updated_at: a.now,
      last_login_at: null,
    },
    trx,
  );
  await grantOpeningCredits(trx, {
    userId: id,
    group,
    requested: a.credits,
    siteMayGrant: a.siteMayGrant,
    whenPoolShort: a.whenPoolShort ?? 'refuse',
    operatorId: a.operatorId ?? null,
    siteDescription: a.grantDescription,
    now: a.now,
  });
  return id;
}

/** Creates one account in its own transaction (registration, start-up). */
export async function createAccount(
  db: Kysely<Database>,
  repos: { users: UsersRepo; groups: GroupsRepo },
  a: NewAccount & { password: string },
): Promise<number> {
  const passwordHash = await hashPassword(a.password);
  return db.transaction().execute((trx) => insertAccount(trx, repos, { ...a, passwordHash }));
}
