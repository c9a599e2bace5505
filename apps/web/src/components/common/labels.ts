import type { Permission, Role } from '@aiplatform/contracts';

/** Translation keys of roles and permissions (keys are flat: permission names contain dots). */
export const ROLE_LABEL_KEYS: Record<Role, string> = {
  super_admin: 'common:role.super_admin',
  admin: 'common:role.admin',
  user: 'common:role.user',
};

export const ROLE_COLORS: Record<Role, string> = { super_admin: 'red', admin: 'gold', user: 'blue' };

export const PERMISSION_LABEL_KEYS: Record<Permission, string> = {
  'chat.use': 'common:permission.chat_use',
  'file.upload': 'common:permission.file_upload',
  'user.manage': 'common:permission.user_manage',
  'user.manage.group': 'common:permission.user_manage_group',
  'group.manage': 'common:permission.group_manage',
  'credits.manage': 'common:permission.credits_manage',
  'credits.manage.group': 'common:permission.credits_manage_group',
  'model.manage': 'common:permission.model_manage',
  'module.manage': 'common:permission.module_manage',
  'settings.manage': 'common:permission.settings_manage',
  'system.all': 'common:permission.system_all',
  'api.keys': 'common:permission.api_keys',
};

export function permissionLabelKey(permission: string): string | undefined {
  return (PERMISSION_LABEL_KEYS as Record<string, string | undefined>)[permission];
}
