/** A group as the "add user" form needs it: its name and whether it has a credit pool. */
export interface PoolGroup {
  id: number;
  name: string;
  credits_pool: number;
}

/**
 * The group a new account will join when that group has a credit pool, else null: the
 * group chosen in the form, or the administrator's own group for those who cannot choose.
 * (With no group chosen the default group applies, which the form does not know.)
 * Opening credits are never drawn from a pool: account creation grants them as a
 * `system_reward` from the site, and the form says so next to them.
 */
export function newMemberPoolGroup(
  groups: readonly PoolGroup[],
  chosenGroupId: number | undefined,
  ownGroupId: number | null,
  canSetGroup: boolean,
): PoolGroup | null {
  const groupId = canSetGroup ? chosenGroupId : ownGroupId;
  const group = groupId === undefined || groupId === null ? undefined : groups.find((g) => g.id === groupId);
  return group && group.credits_pool > 0 ? group : null;
}
