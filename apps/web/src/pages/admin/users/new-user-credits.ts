/** A group as the "add user" form needs it: its name and its credit pool. */
export interface PoolGroup {
  id: number;
  name: string;
  credits_pool: number;
  credits_pool_remaining: number;
}

/**
 * Where the opening credits of the account the form will create come from, as the
 * server decides it: from the pool of its group when that group has one, else from the
 * site — but an administrator who may not adjust balances (a group administrator) gives
 * none outside a pool. Null when the form cannot tell: no group chosen means the default
 * group, which the form does not know (the credits hint states the rule instead), and the
 * groups may not have loaded yet.
 */
export type OpeningCreditsSource = { kind: 'pool'; group: PoolGroup } | { kind: 'none' } | { kind: 'site' } | null;

export function openingCreditsSource(
  groups: readonly PoolGroup[],
  chosenGroupId: number | undefined,
  ownGroupId: number | null,
  can: { setGroup: boolean; setCredits: boolean },
): OpeningCreditsSource {
  const groupId = can.setGroup ? chosenGroupId : ownGroupId;
  if (groupId === undefined || groupId === null) return can.setCredits ? null : { kind: 'none' };
  const group = groups.find((g) => g.id === groupId);
  // Groups not loaded yet: say nothing rather than something that may be wrong.
  if (!group) return null;
  if (group.credits_pool > 0) return { kind: 'pool', group };
  return can.setCredits ? { kind: 'site' } : { kind: 'none' };
}
