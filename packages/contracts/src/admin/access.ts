import type { Permission } from '../permissions.js';
import { hasAnyPermission } from '../permissions.js';

/**
 * Who may do what, as one map read by the server's policy layer (the web learns its
 * result from the server: `abilities` in answers and the session). `all` grants the action on every object; `group` grants it only on
 * objects of the actor's own group (a group administrator). Super-administrator-only
 * actions require `system.all`.
 */
export interface ActionRule {
  all: readonly Permission[];
  group?: readonly Permission[];
}

const USER_ADMIN = { all: ['user.manage'], group: ['user.manage.group'] } as const;

export const ACTION_RULES = {
  /** Chatting: conversations, sending, searching one's own messages, the chat's models. */
  'chat.use': { all: ['chat.use'] },
  /** Uploading images into the chat. */
  'file.upload': { all: ['file.upload'] },
  'user.read': USER_ADMIN,
  'user.create': USER_ADMIN,
  'user.update': USER_ADMIN,
  'user.status': USER_ADMIN,
  'user.password': USER_ADMIN,
  'user.delete': USER_ADMIN,
  'user.export': USER_ADMIN,
  'user.import': USER_ADMIN,
  /** Moving users between groups: never a group administrator. */
  'user.move': { all: ['user.manage'] },
  'user.role': { all: ['system.all'] },
  /** Downloading a person's whole data (conversations included), with a reason: super administrator only. */
  'user.data_export': { all: ['system.all'] },
  /** Anonymising an account and removing its content: super administrator only. */
  'user.erase': { all: ['system.all'] },
  'user.permissions': { all: ['system.all'] },
  'credits.read': { all: ['credits.manage', 'user.manage'], group: ['credits.manage.group', 'user.manage.group'] },
  /** Adding, deducting or setting a balance creates or destroys money: not for group administrators. */
  'credits.adjust': { all: ['credits.manage'] },
  'group.read': { all: ['group.manage'], group: ['credits.manage.group', 'user.manage.group'] },
  'group.manage': { all: ['group.manage'] },
  /** Granting permissions to every member of a group: super administrator only, as for one user. */
  'group.permissions': { all: ['system.all'] },
  /** Moving credits between a group's pool and its members. */
  'group.pool.transfer': { all: ['group.manage', 'credits.manage'], group: ['credits.manage.group'] },
  'audit.read': { all: ['system.all'] },
  /** Signing a checkpoint of the audit chain's head. */
  'audit.checkpoint': { all: ['system.all'] },
  'file.read': USER_ADMIN,
  /*
   * Platform configuration. A group administrator reads it (read-only, secrets removed)
   * but never changes it; models and modules are read as part of the settings.
   */
  'settings.read': { all: ['settings.manage'], group: ['user.manage.group', 'credits.manage.group'] },
  'settings.manage': { all: ['settings.manage'] },
  'model.read': { all: ['model.manage', 'settings.manage'], group: ['user.manage.group', 'credits.manage.group'] },
  'model.manage': { all: ['model.manage'] },
  'module.read': { all: ['module.manage', 'settings.manage'], group: ['user.manage.group', 'credits.manage.group'] },
  'module.manage': { all: ['module.manage'] },
  /** The system announcement: super administrator only. */
  'announcement.manage': { all: ['system.all'] },
  /** A group's announcement: whoever manages groups, or that group's administrator. */
  'group.announcement': { all: ['group.manage'], group: ['user.manage.group'] },
  /**
   * A group's knowledge bases: created and changed by that group's administrators, and by
   * super administrators for every group (members only read them).
   */
  'knowledge.manage': { all: ['system.all'], group: ['user.manage.group'] },
  /** A group's prompt templates: that group's administrators, and super administrators for every group. */
  'prompt.group.manage': { all: ['system.all'], group: ['user.manage.group'] },
  /** The system's prompt templates, which everyone reads: super administrator only. */
  'prompt.system.manage': { all: ['system.all'] },
  /** Identity providers and SCIM provisioning tokens: super administrator only. */
  'identity.manage': { all: ['system.all'] },
  /**
   * Usage caps and budget alerts: on every user and group, or on a group administrator's
   * own group and its plain users.
   */
  'caps.manage': { all: ['credits.manage', 'user.manage'], group: ['credits.manage.group', 'user.manage.group'] },
  /** Making, listing and revoking one's own personal API keys. */
  'api_key.use': { all: ['api.keys'] },
  /** Listing and revoking others' API keys: the users one manages (a group administrator: their group's). */
  'api_key.admin': USER_ADMIN,
  /** Usage statistics and their CSV export: the whole platform, or a group administrator's own group. */
  'stats.read': {
    all: ['settings.manage', 'user.manage', 'credits.manage'],
    group: ['user.manage.group', 'credits.manage.group'],
  },
  /** Placing and releasing legal holds on users and groups, and listing them: super administrator only. */
  'legal_hold.manage': { all: ['system.all'] },
  /** Running retention (dry or for real) and reading its runs: super administrator only. */
  'retention.manage': { all: ['system.all'] },
} as const satisfies Record<string, ActionRule>;

export type Action = keyof typeof ACTION_RULES;

/** How far an actor's right to an action reaches. */
export type Scope = 'all' | 'group' | 'none';

export function scopeOf(permissions: readonly string[], action: Action): Scope {
  const rule: ActionRule = ACTION_RULES[action];
  if (hasAnyPermission(permissions, rule.all)) return 'all';
  if (rule.group && hasAnyPermission(permissions, rule.group)) return 'group';
  return 'none';
}
