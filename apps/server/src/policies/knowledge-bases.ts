import { type KnowledgeBaseScope, scopeOf } from '@aiplatform/contracts';
import type { Actor } from './actor.js';
import { can } from './policy.js';

/*
 * Who may read and change a knowledge base. A personal one is its owner's alone. A group's
 * is read by the members of that group and changed by whoever holds `knowledge.manage`
 * over the group: its administrators, and super administrators for every group (who
 * therefore read every group's too). Everyone else does not see it at all (404).
 */

export interface KnowledgeBaseTarget {
  scope: KnowledgeBaseScope;
  user_id: number;
  group_id: number | null;
}

const managesGroup = (actor: Actor, groupId: number | null) =>
  groupId !== null && can(actor, 'knowledge.manage', { kind: 'group', id: groupId });

export function canReadKnowledgeBase(actor: Actor, kb: KnowledgeBaseTarget): boolean {
  if (kb.scope === 'personal') return kb.user_id === actor.id;
  return (actor.group_id !== null && kb.group_id === actor.group_id) || managesGroup(actor, kb.group_id);
}

/** Renaming, deleting, adding and removing documents. */
export function canChangeKnowledgeBase(actor: Actor, kb: KnowledgeBaseTarget): boolean {
  if (kb.scope === 'personal') return kb.user_id === actor.id;
  return managesGroup(actor, kb.group_id);
}

/** Whether the actor may make a knowledge base of this group (the group's existence is the caller's to check). */
export function canCreateGroupKnowledgeBase(actor: Actor, groupId: number): boolean {
  return managesGroup(actor, groupId);
}

/** Whether the actor reads every group's knowledge bases, not only their own group's. */
export function readsEveryGroup(actor: Actor): boolean {
  return scopeOf(actor.permissions, 'knowledge.manage') === 'all';
}

export function knowledgeBaseAbilities(actor: Actor, kb: KnowledgeBaseTarget): { update: boolean; delete: boolean } {
  const change = canChangeKnowledgeBase(actor, kb);
  return { update: change, delete: change };
}
