import type { AdminUser } from '@aiplatform/contracts';
import type { UserRow } from '../../db/types.js';
import { toUserDto } from './user.presenter.js';
import type { UserWithGroup } from './users.repo.js';

/** The admin view of a user: the session view plus remark, raw credit columns and grants. */
export function toAdminUser(user: UserWithGroup, extraPermissions: readonly string[], now: Date): AdminUser {
  return {
    ...toUserDto(user, now),
    remark: user.remark,
    credits_quota: user.credits_quota,
    credits_used: user.credits_used,
    credits_expire_at: user.credits_expire_at,
    extra_permissions: [...extraPermissions].sort(),
  };
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
    remark: user.remark,
    token_quota: user.token_quota,
    ...(extraPermissions ? { extra_permissions: [...extraPermissions].sort() } : {}),
  };
}
