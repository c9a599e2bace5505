import { type Action, type Role, type Scope, scopeOf } from '@aiplatform/contracts';
import { AppError } from '../lib/http/errors.js';
import type { Actor } from './actor.js';

/*
 * Who may do what to which object. `ACTION_RULES` (contracts) says which permissions
 * grant an action everywhere or inside the actor's own group; this file adds what the
 * object itself decides. Services and route guards ask here and nowhere else.
 */

export type PolicyTarget =
  | { kind: 'user'; id: number; group_id: number | null; role: Role }
  | { kind: 'group'; id: number }
  | { kind: 'file'; owner_id: number; owner_group_id: number | null; owner_role: Role };

/** Actions that only look; everything else changes the object. */
const READS: ReadonlySet<Action> = new Set<Action>([
  'user.read',
  'user.export',
  'user.data_export',
  'credits.read',
  'group.read',
  'file.read',
  'audit.read',
  'stats.read',
]);

/** What nobody does to their own account: it would lock them out or take their rights away. */
const NEVER_ON_ONESELF: ReadonlySet<Action> = new Set<Action>([
  'user.status',
  'user.role',
  'user.delete',
  'user.erase',
]);

const inActorGroup = (actor: Actor, groupId: number | null) => actor.group_id !== null && groupId === actor.group_id;

/** True when the action is one nobody performs on themselves and the target is the actor. */
export function isSelfAction(actor: Actor, action: Action, targetId: number): boolean {
  return NEVER_ON_ONESELF.has(action) && targetId === actor.id;
}

/**
 * Refuses a self-action by the account's id, before anything is looked up or locked:
 * SELF_ACTION_NOT_ALLOWED whoever the actor is, so the answer is the same for every caller.
 */
export function refuseSelfAction(actor: Actor, action: Action, targetIds: number | readonly number[]): void {
  const ids = typeof targetIds === 'number' ? [targetIds] : targetIds;
  if (ids.some((id) => isSelfAction(actor, action, id))) throw new AppError('SELF_ACTION_NOT_ALLOWED');
}

/** True when the actor may perform the action (on the target, when one is given). */
export function can(actor: Actor, action: Action, target?: PolicyTarget): boolean {
  // The owner of a file reads it whatever their permissions.
  if (target?.kind === 'file' && action === 'file.read' && target.owner_id === actor.id) return true;
  const scope = scopeOf(actor.permissions, action);
  if (scope === 'none') return false;
  if (!target) return true;
  switch (target.kind) {
    case 'user': {
      if (isSelfAction(actor, action, target.id)) return false;
      const writes = !READS.has(action);
      // Only a super administrator changes a super administrator's account.
      if (writes && target.role === 'super_admin' && actor.role !== 'super_admin') return false;
      if (scope === 'all') return true;
      // A group-scoped actor reads their group and changes only its plain users — never
      // themselves, even when their own role is `user` and the right is a granted permission.
      return inActorGroup(actor, target.group_id) && (!writes || (target.role === 'user' && target.id !== actor.id));
    }
    case 'group':
      return scope === 'all' || inActorGroup(actor, target.id);
    case 'file':
      return (
        target.owner_id === actor.id ||
        can(actor, action, {
          kind: 'user',
          id: target.owner_id,
          group_id: target.owner_group_id,
          role: target.owner_role,
        })
      );
  }
}

/**
 * Throws unless `can`: FORBIDDEN when the actor has no right to the action at all or may
 * see the object but not do this to it; SELF_ACTION_NOT_ALLOWED when the object is the
 * actor's own account and the action one nobody does to themselves; NOT_FOUND when the object is outside what the
 * actor may see, so a group administrator cannot probe other groups.
 */
export function authorize(actor: Actor, action: Action, target?: PolicyTarget): void {
  if (can(actor, action, target)) return;
  if (!target || scopeOf(actor.permissions, action) === 'none') throw new AppError('FORBIDDEN');
  if (target.kind === 'user') refuseSelfAction(actor, action, target.id);
  const visible =
    target.kind === 'group'
      ? can(actor, 'group.read', target)
      : target.kind === 'user'
        ? can(actor, 'user.read', target)
        : false;
  throw new AppError(visible ? 'FORBIDDEN' : 'NOT_FOUND');
}

/**
 * `authorize` for an object looked up by id: an actor with no right to the action at all
 * gets 403 whether or not the object exists (otherwise 403 against 404 would tell them
 * which ids exist); with some right, a missing object is 404 as one out of sight is.
 */
export function authorizeFound<T>(
  actor: Actor,
  action: Action,
  found: T | undefined,
  targetOf: (found: T) => PolicyTarget,
): T {
  requireScope(actor, action);
  if (!found) throw new AppError('NOT_FOUND');
  authorize(actor, action, targetOf(found));
  return found;
}

/** What a list may show the actor: every row, or only their group's. */
export type ListScope = { all: true } | { all: false; groupId: number };

export function listScope(actor: Actor, action: Action): ListScope {
  const scope: Scope = scopeOf(actor.permissions, action);
  if (scope === 'all') return { all: true };
  if (scope === 'group' && actor.group_id !== null) return { all: false, groupId: actor.group_id };
  throw new AppError('FORBIDDEN');
}

/** Route guard form: the actor needs some scope for the action. */
export function requireScope(actor: Actor, action: Action): void {
  if (scopeOf(actor.permissions, action) === 'none') throw new AppError('FORBIDDEN');
}
