import type { AdminUser } from '@aiplatform/contracts';
import type { AdminAccess } from '../shared/use-admin-access';

/**
 * Whether the signed-in administrator may change this account at all. It mirrors the
 * server's rules so that buttons which would only earn a refusal are not offered: a
 * group administrator changes only plain users, and only a super administrator changes
 * a super administrator. The server still decides.
 */
export function mayChangeUser(access: AdminAccess, target: Pick<AdminUser, 'role'>): boolean {
  const scope = access.scope('user.update');
  if (scope === 'none') return false;
  if (target.role === 'super_admin' && !access.canEverywhere('user.role')) return false;
  return scope === 'all' || target.role === 'user';
}

/** Nobody disables, retires or demotes their own account. */
export function isSelf(access: AdminAccess, target: Pick<AdminUser, 'id'>): boolean {
  return access.currentUserId === target.id;
}
