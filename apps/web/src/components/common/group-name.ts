import type { TFunction } from 'i18next';

/**
 * The name the default group (id 1) is created with. It is a stable key, not a name: it is
 * shown translated in the viewer's language ("默认分组" / "Default group"). Once an
 * administrator renames the group, the new name is shown as typed.
 */
export const DEFAULT_GROUP_SEED_NAME = 'default';
export const DEFAULT_GROUP_ID = 1;

/** A group's name as people read it; `id`, when known, makes sure it is the default group. */
export function groupDisplayName(name: string, t: TFunction, id?: number | null): string;
export function groupDisplayName(name: string | null, t: TFunction, id?: number | null): string | null;
export function groupDisplayName(name: string | null, t: TFunction, id?: number | null): string | null {
  if (name !== DEFAULT_GROUP_SEED_NAME) return name;
  if (id !== undefined && id !== null && id !== DEFAULT_GROUP_ID) return name;
  return t('common:group.default');
}
