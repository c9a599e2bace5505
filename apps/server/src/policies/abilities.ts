import {
  ACTION_RULES,
  type Action,
  GROUP_ABILITY_ACTIONS,
  type GroupAbilities,
  PAGE_ACTIONS,
  SETTINGS_PART_ACTIONS,
  type SessionAbilities,
  type SettingsAccess,
  USER_ABILITY_ACTIONS,
  type UserAbilities,
  scopeOf,
} from '@aiplatform/contracts';
import type { Actor } from './actor.js';
import { can } from './policy.js';
import { userTarget } from './user-targets.js';

/*
 * The policy's answers, presented: for an actor and an object, each ability the web needs
 * is `can(actor, action, object)` — the same question the services ask before they act —
 * so a control the web shows is one the server will allow.
 */

function decide<K extends string>(
  actions: Record<K, Action>,
  allowed: (action: Action) => boolean,
): Record<K, boolean> {
  const out = {} as Record<K, boolean>;
  for (const key of Object.keys(actions) as K[]) out[key] = allowed(actions[key]);
  return out;
}

export function userAbilities(actor: Actor, user: Parameters<typeof userTarget>[0]): UserAbilities {
  const target = userTarget(user);
  return decide(USER_ABILITY_ACTIONS, (action) => can(actor, action, target));
}

export function groupAbilities(actor: Actor, groupId: number): GroupAbilities {
  return decide(GROUP_ABILITY_ACTIONS, (action) => can(actor, action, { kind: 'group', id: groupId }));
}

function settingsAccess(actor: Actor, part: { read: Action; manage: Action }): SettingsAccess {
  if (can(actor, part.manage)) return 'manage';
  return can(actor, part.read) ? 'read' : 'none';
}

/** The signed-in user's pages, settings parts and the reach of every action. */
export function sessionAbilities(actor: Actor): SessionAbilities {
  const actions = {} as SessionAbilities['actions'];
  for (const action of Object.keys(ACTION_RULES) as Action[]) actions[action] = scopeOf(actor.permissions, action);
  return {
    pages: decide(PAGE_ACTIONS, (action) => can(actor, action)),
    settings: {
      settings: settingsAccess(actor, SETTINGS_PART_ACTIONS.settings),
      models: settingsAccess(actor, SETTINGS_PART_ACTIONS.models),
      modules: settingsAccess(actor, SETTINGS_PART_ACTIONS.modules),
    },
    actions,
  };
}
