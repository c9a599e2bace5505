import type { AdminUser } from '@aiplatform/contracts';
import type { UserRow } from '../../db/types.js';
import { userAbilities } from '../../policies/abilities.js';
import type { Actor } from '../../policies/actor.js';
import { toUserDto } from './user.presenter.js';
import type { UserWithGroup } from './users.repo.js';

/** A user's fields as administrators see them, without what the viewer may do (the CSV export). */
export type AdminUserFields = Omit<AdminUser, 'abilities'>;

/** The admin view of a user: the session view plus remark, raw credit columns and grants. */
export function adminUserFields(user: UserWithGroup, extraPermissions: readonly string[], now: Date): AdminUserFields {
  return {
    ...toUserDto(user, now),
    remark: user.remark,
    credits_quota: user.credits_quota,
    credits_used: user.credits_used,
    credits_expire_at: user.credits_expire_at,
    extra_permissions: [...extraPermissions].sort(),
    group_pinned: user.group_pinned === 1,
  };
}

/** The admin view of a user as `actor` sees it: the fields and what the policy lets `actor` do to it. */
export function toAdminUser(
  actor: Actor,
  user: UserWithGroup,
  extraPermissions: readonly string[],
  now: Date,
): AdminUser {
  return { ...adminUserFields(user, extraPermissions, now), abilities: userAbilities(actor, user) };
}

/** The fields an audit row compares before and after a change (never the password hash). */
export function auditSnapshot(user: UserRow, extraPermissions?: readonly string[]): Record<string, unknown> {
  return {
    username: user.username,
    email: user.email,
    phone: user.phone,
    role: user.role,
    status: user.status,
    group_id: user.group_id,
    group_pinned: user.group_pinned === 1,
    remark: user.remark,
    token_quota: user.token_quota,
    ...(extraPermissions ? { extra_permissions: [...extraPermissions].sort() } : {}),
  };
}
