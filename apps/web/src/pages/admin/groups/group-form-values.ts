import type { CreateGroupBody, Group, Permission } from '@aiplatform/contracts';

export const DEFAULT_GROUP_COLOR = '#1677ff';

export interface GroupFormValues {
  name: string;
  description: string;
  color: string;
  sort_order: number;
  active: boolean;
  unlimited: boolean;
  user_limit: number | null;
  /** Empty: the site's retention. */
  retention_days: number | null;
  /** Granted to every member; only sent by those who may grant permissions. */
  permissions: Permission[];
}

export function formValuesOf(group: Group | null): GroupFormValues {
  if (!group)
    return {
      name: '',
      description: '',
      color: DEFAULT_GROUP_COLOR,
      sort_order: 0,
      active: true,
      unlimited: true,
      user_limit: null,
      retention_days: null,
      permissions: [],
    };
  return {
    name: group.name,
    description: group.description,
    color: group.color,
    sort_order: group.sort_order,
    active: group.status === 'active',
    unlimited: group.user_limit === null,
    user_limit: group.user_limit,
    retention_days: group.retention_days,
    permissions: group.permissions as Permission[],
  };
}

/**
 * The create or update body; "unlimited" is sent as a null limit. The permissions go only
 * when the editor may grant them (the server refuses a change from anyone else).
 */
export function groupBodyOf(values: GroupFormValues, canGrant = false): CreateGroupBody {
  return {
    ...(canGrant ? { permissions: values.permissions } : {}),
    name: values.name.trim(),
    description: values.description.trim(),
    color: values.color,
    sort_order: values.sort_order,
    status: values.active ? 'active' : 'inactive',
    user_limit: values.unlimited ? null : values.user_limit,
    retention_days: values.retention_days ?? null,
  };
}
