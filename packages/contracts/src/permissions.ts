export const ROLES = ['super_admin', 'admin', 'user'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  'chat.use',
  'file.upload',
  'user.manage',
  'user.manage.group',
  'group.manage',
  'credits.manage',
  'credits.manage.group',
  'model.manage',
  'module.manage',
  'settings.manage',
  'system.all',
  /** Making personal API keys (granted per user or per group, held by no role by default). */
  'api.keys',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Permissions every member of a role holds before per-user grants. */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  super_admin: ['system.all'],
  admin: ['chat.use', 'file.upload', 'user.manage.group', 'credits.manage.group'],
  user: ['chat.use', 'file.upload'],
};

/** Role permissions plus grants (the user's own and their group's), de-duplicated. */
export function effectivePermissions(role: Role, extra: readonly string[]): string[] {
  return [...new Set([...ROLE_PERMISSIONS[role], ...extra])];
}

/**
 * A check passes on the exact string, on `system.all`, or on a held `prefix.*`
 * wildcard whose prefix starts the required permission.
 */
export function hasPermission(held: readonly string[], required: string): boolean {
  for (const p of held) {
    if (p === required || p === 'system.all') return true;
    if (p.endsWith('.*') && required.startsWith(p.slice(0, -1))) return true;
  }
  return false;
}

export function hasAnyPermission(held: readonly string[], required: readonly string[]): boolean {
  return required.some((r) => hasPermission(held, r));
}
