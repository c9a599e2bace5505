import type { Group } from '@aiplatform/contracts';
import type { TFunction } from 'i18next';

/** "12 / 50", or "12 / unlimited" when the group has no limit. */
export function memberCountText(t: TFunction, group: Pick<Group, 'user_count' | 'user_limit'>): string {
  return group.user_limit === null
    ? t('admin:groups.membersUnlimited', { count: group.user_count })
    : t('admin:groups.membersOfLimit', { count: group.user_count, limit: group.user_limit });
}
