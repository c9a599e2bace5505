import { type PromptScope, scopeOf } from '@aiplatform/contracts';
import type { Actor } from './actor.js';
import { can } from './policy.js';

/*
 * Who may read and change a prompt template. A personal one is its owner's alone. A group's
 * is read by the members of that group and changed by whoever holds `prompt.group.manage`
 * over the group: its administrators, and super administrators for every group (who
 * therefore read every group's too). The system's are read by everyone and changed by
 * super administrators. Anyone else does not see a template at all (404).
 */

export interface PromptTarget {
  scope: PromptScope;
  owner_id: number | null;
  group_id: number | null;
}

const managesGroup = (actor: Actor, groupId: number | null) =>
  groupId !== null && can(actor, 'prompt.group.manage', { kind: 'group', id: groupId });

export function canReadPrompt(actor: Actor, t: PromptTarget): boolean {
  if (t.scope === 'system') return true;
  if (t.scope === 'personal') return t.owner_id === actor.id;
  return (actor.group_id !== null && t.group_id === actor.group_id) || managesGroup(actor, t.group_id);
}

/** Editing and deleting. */
export function canChangePrompt(actor: Actor, t: PromptTarget): boolean {
  if (t.scope === 'system') return can(actor, 'prompt.system.manage');
  if (t.scope === 'personal') return t.owner_id === actor.id;
  return managesGroup(actor, t.group_id);
}

/** Whether the actor reads every group's templates, not only their own group's. */
export function readsEveryGroupsPrompts(actor: Actor): boolean {
  return scopeOf(actor.permissions, 'prompt.group.manage') === 'all';
}

export function promptAbilities(actor: Actor, t: PromptTarget): { update: boolean; delete: boolean } {
  const change = canChangePrompt(actor, t);
  return { update: change, delete: change };
}
