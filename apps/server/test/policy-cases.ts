import type { Action } from '@aiplatform/contracts';
import type { Actor } from '../src/policies/actor.js';
import type { PolicyTarget } from '../src/policies/policy.js';

/*
 * The policy's table of cases: who (an actor), does what (an action), to which object (a
 * target), and what must come of it. Every action has at least one row (the policy test checks).
 */

export const ADMIN_PERMISSIONS = ['chat.use', 'file.upload', 'user.manage.group', 'credits.manage.group'];

export const actors = {
  super: { id: 1, username: 'root', role: 'super_admin', group_id: 1, permissions: ['system.all'] },
  admin2: { id: 10, username: 'ga2', role: 'admin', group_id: 2, permissions: ADMIN_PERMISSIONS },
  admin3: { id: 11, username: 'ga3', role: 'admin', group_id: 3, permissions: ADMIN_PERMISSIONS },
  user2: { id: 12, username: 'plain', role: 'user', group_id: 2, permissions: ['chat.use', 'file.upload'] },
  manager2: { id: 13, username: 'mgr', role: 'admin', group_id: 2, permissions: [...ADMIN_PERMISSIONS, 'user.manage'] },
  adminNoGroup: { id: 14, username: 'nogroup', role: 'admin', group_id: null, permissions: ADMIN_PERMISSIONS },
} as const satisfies Record<string, Actor>;
type ActorName = keyof typeof actors;

export const targets = {
  u2user: { kind: 'user', id: 20, group_id: 2, role: 'user' },
  u2admin: { kind: 'user', id: 21, group_id: 2, role: 'admin' },
  u2super: { kind: 'user', id: 22, group_id: 2, role: 'super_admin' },
  u3user: { kind: 'user', id: 30, group_id: 3, role: 'user' },
  g2: { kind: 'group', id: 2 },
  g3: { kind: 'group', id: 3 },
  f2user: { kind: 'file', owner_id: 20, owner_group_id: 2, owner_role: 'user' },
  f2admin: { kind: 'file', owner_id: 21, owner_group_id: 2, owner_role: 'admin' },
  f3user: { kind: 'file', owner_id: 30, owner_group_id: 3, owner_role: 'user' },
  /** The super administrator's and the manager's own accounts. */
  selfSuper: { kind: 'user', id: 1, group_id: 1, role: 'super_admin' },
  selfManager: { kind: 'user', id: 13, group_id: 2, role: 'admin' },
  /** A file of the plain user `user2` themself. */
  fOwn: { kind: 'file', owner_id: 12, owner_group_id: 2, owner_role: 'user' },
} as const satisfies Record<string, PolicyTarget>;
type TargetName = keyof typeof targets | '-';

/** true = allowed; otherwise the code authorize throws. */
export type Expected = true | 'FORBIDDEN' | 'NOT_FOUND' | 'SELF_ACTION_NOT_ALLOWED';
type Row = [ActorName, Action, TargetName, Expected];

const Y = true;
const F = 'FORBIDDEN';
const N = 'NOT_FOUND';
const S = 'SELF_ACTION_NOT_ALLOWED';

export const TABLE: Row[] = [
  // Super administrator: everything, everywhere, including other super administrators.
  ['super', 'user.read', 'u3user', Y],
  ['super', 'user.create', '-', Y],
  ['super', 'user.update', 'u2super', Y],
  ['super', 'user.status', 'u2admin', Y],
  ['super', 'user.password', 'u2super', Y],
  ['super', 'user.delete', 'u3user', Y],
  ['super', 'user.export', '-', Y],
  ['super', 'user.import', '-', Y],
  ['super', 'user.move', 'u3user', Y],
  ['super', 'user.role', 'u2admin', Y],
  ['super', 'user.permissions', 'u2user', Y],
  ['super', 'credits.read', 'u3user', Y],
  ['super', 'credits.adjust', 'u2user', Y],
  ['super', 'group.read', 'g3', Y],
  ['super', 'group.manage', 'g2', Y],
  ['super', 'group.manage', '-', Y],
  ['super', 'group.pool.transfer', 'g3', Y],
  ['super', 'audit.read', '-', Y],
  ['super', 'audit.checkpoint', '-', Y],
  ['super', 'file.read', 'f3user', Y],

  // A person's whole data and erasure: the super administrator's alone, never on themselves.
  ['super', 'user.data_export', 'u3user', Y],
  ['super', 'user.data_export', 'selfSuper', Y],
  ['super', 'user.erase', 'u2super', Y],
  ['super', 'user.erase', 'selfSuper', S],
  ['manager2', 'user.data_export', 'u3user', F],
  ['manager2', 'user.erase', 'u3user', F],
  ['admin2', 'user.data_export', 'u2user', F],
  ['admin2', 'user.erase', 'u2user', F],
  ['user2', 'user.data_export', '-', F],
  ['user2', 'user.erase', '-', F],

  // Nobody disables, retires or changes the role of their own account; the rest of it they may edit.
  ['super', 'user.status', 'selfSuper', S],
  ['super', 'user.delete', 'selfSuper', S],
  ['super', 'user.role', 'selfSuper', S],
  ['super', 'user.update', 'selfSuper', Y],
  ['super', 'user.password', 'selfSuper', Y],
  ['super', 'user.move', 'selfSuper', Y],
  ['super', 'user.permissions', 'selfSuper', Y],
  ['manager2', 'user.status', 'selfManager', S],
  ['manager2', 'user.delete', 'selfManager', S],
  ['manager2', 'user.update', 'selfManager', Y],
  // Without the right at all, the refusal is the plain one.
  ['manager2', 'user.role', 'selfManager', F],

  // Group administrator of group 2.
  ['admin2', 'user.read', 'u2user', Y],
  ['admin2', 'user.read', 'u2admin', Y],
  ['admin2', 'user.read', 'u2super', Y],
  ['admin2', 'user.read', 'u3user', N],
  ['admin2', 'user.create', '-', Y],
  ['admin2', 'user.update', 'u2user', Y],
  ['admin2', 'user.update', 'u2admin', F],
  ['admin2', 'user.update', 'u2super', F],
  ['admin2', 'user.update', 'u3user', N],
  ['admin2', 'user.status', 'u2user', Y],
  ['admin2', 'user.status', 'u2admin', F],
  ['admin2', 'user.status', 'u3user', N],
  ['admin2', 'user.password', 'u2user', Y],
  ['admin2', 'user.password', 'u2admin', F],
  ['admin2', 'user.password', 'u3user', N],
  ['admin2', 'user.delete', 'u2user', Y],
  ['admin2', 'user.delete', 'u2super', F],
  ['admin2', 'user.delete', 'u3user', N],
  ['admin2', 'user.export', '-', Y],
  ['admin2', 'user.import', '-', Y],
  ['admin2', 'user.move', 'u2user', F],
  ['admin2', 'user.move', '-', F],
  ['admin2', 'user.role', 'u2user', F],
  ['admin2', 'user.permissions', 'u2user', F],
  ['admin2', 'credits.read', 'u2user', Y],
  ['admin2', 'credits.read', 'u2admin', Y],
  ['admin2', 'credits.read', 'u3user', N],
  ['admin2', 'credits.adjust', 'u2user', F],
  ['admin2', 'credits.adjust', '-', F],
  ['admin2', 'group.read', 'g2', Y],
  ['admin2', 'group.read', 'g3', N],
  ['admin2', 'group.read', '-', Y],
  ['admin2', 'group.manage', 'g2', F],
  ['admin2', 'group.manage', 'g3', F],
  ['admin2', 'group.manage', '-', F],
  ['admin2', 'group.pool.transfer', 'g2', Y],
  ['admin2', 'group.pool.transfer', 'g3', N],
  ['admin2', 'audit.read', '-', F],
  ['admin2', 'audit.checkpoint', '-', F],
  ['admin2', 'file.read', 'f2user', Y],
  ['admin2', 'file.read', 'f2admin', Y],
  ['admin2', 'file.read', 'f3user', N],

  // Group administrator of group 3: the mirror image.
  ['admin3', 'user.read', 'u3user', Y],
  ['admin3', 'user.read', 'u2user', N],
  ['admin3', 'user.update', 'u3user', Y],
  ['admin3', 'user.delete', 'u2user', N],
  ['admin3', 'credits.read', 'u2user', N],
  ['admin3', 'group.read', 'g3', Y],
  ['admin3', 'group.read', 'g2', N],
  ['admin3', 'group.pool.transfer', 'g3', Y],
  ['admin3', 'group.pool.transfer', 'g2', N],
  ['admin3', 'file.read', 'f2user', N],
  ['admin3', 'file.read', 'f3user', Y],

  // An administrator without a group sees no group's objects.
  ['adminNoGroup', 'user.read', 'u2user', N],
  ['adminNoGroup', 'group.read', 'g2', N],

  // A plain user: no admin action at all, only their own files.
  ['user2', 'user.read', 'u2user', F],
  ['user2', 'user.read', '-', F],
  ['user2', 'user.create', '-', F],
  ['user2', 'user.update', 'u2user', F],
  ['user2', 'user.export', '-', F],
  ['user2', 'user.import', '-', F],
  ['user2', 'credits.read', 'u2user', F],
  ['user2', 'credits.adjust', 'u2user', F],
  ['user2', 'group.read', 'g2', F],
  ['user2', 'group.manage', 'g2', F],
  ['user2', 'group.pool.transfer', 'g2', F],
  ['user2', 'audit.read', '-', F],
  ['user2', 'audit.checkpoint', '-', F],
  ['user2', 'file.read', 'fOwn', Y],
  ['user2', 'file.read', 'f2user', F],

  // An administrator of group 2 holding user.manage as an extra permission.
  ['manager2', 'user.read', 'u3user', Y],
  ['manager2', 'user.update', 'u3user', Y],
  ['manager2', 'user.update', 'u2admin', Y],
  ['manager2', 'user.update', 'u2super', F],
  ['manager2', 'user.status', 'u2super', F],
  ['manager2', 'user.password', 'u2super', F],
  ['manager2', 'user.delete', 'u2super', F],
  ['manager2', 'user.read', 'u2super', Y],
  ['manager2', 'user.move', 'u3user', Y],
  ['manager2', 'user.move', 'u2super', F],
  ['manager2', 'user.role', 'u3user', F],
  ['manager2', 'user.permissions', 'u3user', F],
  ['manager2', 'credits.read', 'u3user', Y],
  ['manager2', 'credits.adjust', 'u3user', F],
  ['manager2', 'group.read', 'g3', N],
  ['manager2', 'group.read', 'g2', Y],
  ['manager2', 'group.manage', 'g2', F],
  ['manager2', 'group.pool.transfer', 'g3', N],
  ['manager2', 'audit.read', '-', F],
  ['manager2', 'audit.checkpoint', '-', F],
  ['manager2', 'file.read', 'f3user', Y],

  // Settings and announcements: a group administrator reads the settings and edits only
  // their own group's announcement; the system announcement is the super administrator's.
  ['super', 'settings.read', '-', Y],
  ['super', 'settings.manage', '-', Y],
  ['super', 'announcement.manage', '-', Y],
  ['super', 'group.announcement', 'g2', Y],
  ['super', 'group.announcement', 'g3', Y],
  ['admin2', 'settings.read', '-', Y],
  ['admin2', 'settings.manage', '-', F],
  ['admin2', 'announcement.manage', '-', F],
  ['admin2', 'group.announcement', 'g2', Y],
  ['admin2', 'group.announcement', 'g3', N],
  ['admin2', 'group.announcement', '-', Y],
  ['admin3', 'group.announcement', 'g3', Y],
  ['admin3', 'group.announcement', 'g2', N],
  ['adminNoGroup', 'group.announcement', 'g2', N],
  ['user2', 'settings.read', '-', F],
  ['user2', 'settings.manage', '-', F],
  ['user2', 'announcement.manage', '-', F],
  ['user2', 'group.announcement', 'g2', F],

  // Single sign-on, legal holds and retention runs: the super administrator's alone, whatever else one manages.
  ['super', 'identity.manage', '-', Y],
  ['admin2', 'identity.manage', '-', F],
  ['manager2', 'identity.manage', '-', F],
  ['user2', 'identity.manage', '-', F],
  ['super', 'legal_hold.manage', '-', Y],
  ['admin2', 'legal_hold.manage', '-', F],
  ['super', 'retention.manage', '-', Y],
  ['admin2', 'retention.manage', '-', F],
  // Models and modules: read-only for a group administrator, managed by the super administrator.
  ['super', 'model.read', '-', Y],
  ['super', 'model.manage', '-', Y],
  ['super', 'module.read', '-', Y],
  ['super', 'module.manage', '-', Y],
  ['admin2', 'model.read', '-', Y],
  ['admin2', 'model.manage', '-', F],
  ['admin2', 'module.read', '-', Y],
  ['admin2', 'module.manage', '-', F],
  ['user2', 'model.read', '-', F],
  ['user2', 'module.manage', '-', F],
  // Usage statistics: every group for the super administrator, only their own for a group administrator.
  ['super', 'stats.read', '-', Y],
  ['super', 'stats.read', 'g3', Y],
  ['admin2', 'stats.read', '-', Y],
  ['admin2', 'stats.read', 'g2', Y],
  ['admin2', 'stats.read', 'g3', N],
  ['user2', 'stats.read', '-', F],

  // Personal API keys: one's own only with the granted permission (no role holds it but the super
  // administrator's); others' keys as far as one manages their owners.
  ['super', 'api_key.use', '-', Y],
  ['admin2', 'api_key.use', '-', F],
  ['user2', 'api_key.use', '-', F],
  ['super', 'api_key.admin', 'u3user', Y],
  ['admin2', 'api_key.admin', 'u2user', Y],
  ['admin2', 'api_key.admin', 'u3user', N],
  ['admin2', 'api_key.admin', 'u2admin', F],
  ['user2', 'api_key.admin', '-', F],
  // Permissions granted to a whole group: the super administrator only, as for one user.
  ['super', 'group.permissions', 'g3', Y],
  ['admin2', 'group.permissions', 'g2', F],
  ['manager2', 'group.permissions', 'g2', F],

  // Usage caps and their alerts: on every user and group, or on a group administrator's own group and its users.
  ['super', 'caps.manage', 'u3user', Y],
  ['super', 'caps.manage', 'g3', Y],
  ['admin2', 'caps.manage', 'u2user', Y],
  ['admin2', 'caps.manage', 'g2', Y],
  ['admin2', 'caps.manage', 'u3user', N],
  ['admin2', 'caps.manage', 'g3', N],
  ['user2', 'caps.manage', '-', F],

  // A group's knowledge bases: changed by its administrators, every group's by the super administrator.
  ['super', 'knowledge.manage', 'g3', Y],
  ['admin2', 'knowledge.manage', 'g2', Y],
  ['admin2', 'knowledge.manage', 'g3', N],
  ['user2', 'knowledge.manage', 'g2', F],

  // Prompt templates: a group's by its administrators (every group's by the super administrator), the system's by the super administrator.
  ['super', 'prompt.group.manage', 'g3', Y],
  ['admin2', 'prompt.group.manage', 'g2', Y],
  ['admin2', 'prompt.group.manage', 'g3', N],
  ['user2', 'prompt.group.manage', 'g2', F],
  ['super', 'prompt.system.manage', '-', Y],
  ['admin2', 'prompt.system.manage', '-', F],
  ['user2', 'prompt.system.manage', '-', F],

  // Chatting and uploading into the chat: every role holds them.
  ['super', 'chat.use', '-', Y],
  ['admin2', 'chat.use', '-', Y],
  ['user2', 'chat.use', '-', Y],
  ['super', 'file.upload', '-', Y],
  ['admin2', 'file.upload', '-', Y],
  ['user2', 'file.upload', '-', Y],
];
