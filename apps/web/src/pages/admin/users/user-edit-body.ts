import type { AdminUser, Permission, Role, UpdateAdminUserBody } from '@aiplatform/contracts';

export interface UserEditValues {
  username: string;
  email: string;
  phone: string;
  group_id?: number | null;
  /** Single sign-on and provisioning leave a pinned group alone. */
  group_pinned?: boolean;
  remark: string;
  token_quota: number | null;
  role?: Role;
  extra_permissions?: Permission[];
}

/** What the form starts from. */
export function editValuesOf(user: AdminUser): UserEditValues {
  return {
    username: user.username,
    email: user.email,
    phone: user.phone ?? '',
    group_id: user.group_id,
    group_pinned: user.group_pinned,
    remark: user.remark ?? '',
    token_quota: user.token_quota,
    role: user.role,
    extra_permissions: user.extra_permissions as Permission[],
  };
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item) => b.includes(item));

/**
 * Only the fields that changed are sent: role, group and extra permissions each need
 * their own right, so echoing an unchanged value would be refused for those without it.
 */
export function changedFields(user: AdminUser, values: UserEditValues): UpdateAdminUserBody {
  const body: UpdateAdminUserBody = {};
  const username = values.username.trim();
  const email = values.email.trim();
  const phone = values.phone.trim() || null;
  const remark = values.remark.trim() || null;
  if (username !== user.username) body.username = username;
  if (email !== user.email) body.email = email;
  if (phone !== user.phone) body.phone = phone;
  if (remark !== (user.remark || null)) body.remark = remark;
  if (values.token_quota != null && values.token_quota !== user.token_quota) body.token_quota = values.token_quota;
  if (values.group_id != null && values.group_id !== user.group_id) body.group_id = values.group_id;
  if (values.group_pinned !== undefined && values.group_pinned !== user.group_pinned)
    body.group_pinned = values.group_pinned;
  if (values.role && values.role !== user.role) body.role = values.role;
  if (values.extra_permissions && !sameSet(values.extra_permissions, user.extra_permissions))
    body.extra_permissions = values.extra_permissions;
  return body;
}
