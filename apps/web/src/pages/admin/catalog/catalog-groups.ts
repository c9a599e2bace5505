/** Every group, or only the chosen ones. */
export type GroupScope = 'all' | 'selected';

/**
 * The groups part of a model's or module's form: `group_scope` says every group or the
 * chosen ones, `group_ids` the chosen ones. On the server an empty list means every group.
 */
export interface GroupFormValues {
  group_scope: GroupScope;
  group_ids: number[];
}

/** The form's groups for an item (none yet: every group). */
export function groupFormValuesOf(item: { group_ids: number[] } | null): GroupFormValues {
  const groupIds = item?.group_ids ?? [];
  return { group_scope: groupIds.length > 0 ? 'selected' : 'all', group_ids: groupIds };
}

/** The `group_ids` a create or update body sends: [] for every group. */
export function groupIdsOf(values: GroupFormValues): number[] {
  return values.group_scope === 'all' ? [] : values.group_ids;
}
