import type { UsageOverview } from '@aiplatform/contracts';

export interface GroupOption {
  value: number;
  label: string;
}

/**
 * The group picker's choices: the groups list (its first page only, so a large
 * installation may miss some) completed by every group the statistics have named, so
 * a group with usage can always be chosen and a chosen group shows its name.
 */
export function mergeGroupOptions(
  listed: readonly GroupOption[],
  seen: readonly UsageOverview['groups'][number][],
): GroupOption[] {
  const merged = [...listed];
  const known = new Set(listed.map((option) => option.value));
  for (const group of seen) {
    if (group.group_id === null || group.group_name === null || known.has(group.group_id)) continue;
    known.add(group.group_id);
    merged.push({ value: group.group_id, label: group.group_name });
  }
  return merged;
}
