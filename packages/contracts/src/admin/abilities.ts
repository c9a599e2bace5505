import { z } from 'zod';
import { ACTION_RULES, type Action } from './access.js';

/*
 * What the signed-in user may do, as the server's policy decides it. Answers about an
 * object carry that object's abilities, and the session carries the page-level ones, so
 * the web shows only the controls that would succeed without holding a copy of the rules.
 * Each ability names the action the server asks its policy about.
 */

function booleans<K extends string>(keys: readonly K[]) {
  return z.object(Object.fromEntries(keys.map((k) => [k, z.boolean()])) as Record<K, z.ZodBoolean>);
}

/** A user row's abilities and the action each one is. */
export const USER_ABILITY_ACTIONS = {
  update: 'user.update',
  status: 'user.status',
  password: 'user.password',
  delete: 'user.delete',
  role: 'user.role',
  move: 'user.move',
  permissions: 'user.permissions',
  /** Downloading the user's data (with a reason) and erasing the account. */
  'data.export': 'user.data_export',
  erase: 'user.erase',
  'credits.read': 'credits.read',
  'credits.adjust': 'credits.adjust',
  /** Moving credits between the user's group pool and this user. */
  'pool.transfer': 'group.pool.transfer',
} as const satisfies Record<string, Action>;
export type UserAbility = keyof typeof USER_ABILITY_ACTIONS;
export const UserAbilitiesSchema = booleans(Object.keys(USER_ABILITY_ACTIONS) as UserAbility[]);
export type UserAbilities = z.infer<typeof UserAbilitiesSchema>;

/** A group row's abilities: edit, delete and size it; move its pool credits; its announcement. */
export const GROUP_ABILITY_ACTIONS = {
  manage: 'group.manage',
  'pool.transfer': 'group.pool.transfer',
  announcement: 'group.announcement',
  /** Granting permissions to the whole group. */
  permissions: 'group.permissions',
} as const satisfies Record<string, Action>;
export type GroupAbility = keyof typeof GROUP_ABILITY_ACTIONS;
export const GroupAbilitiesSchema = booleans(Object.keys(GROUP_ABILITY_ACTIONS) as GroupAbility[]);
export type GroupAbilities = z.infer<typeof GroupAbilitiesSchema>;

/** The screens of the app a signed-in user may open (the menu and the page guards). */
export const PAGE_ACTIONS = {
  chat: 'chat.use',
  users: 'user.read',
  groups: 'group.read',
  audit: 'audit.read',
  stats: 'stats.read',
  settings: 'settings.read',
  identity: 'identity.manage',
  legalHolds: 'legal_hold.manage',
  /** Every user's personal API keys (a group administrator: their group's). */
  apiKeys: 'api_key.admin',
} as const satisfies Record<string, Action>;
export type AppPage = keyof typeof PAGE_ACTIONS;
export const PageAbilitiesSchema = booleans(Object.keys(PAGE_ACTIONS) as AppPage[]);

/** A part of the settings: not shown, shown read-only, or editable. */
export const SettingsAccessSchema = z.enum(['none', 'read', 'manage']);
export type SettingsAccess = z.infer<typeof SettingsAccessSchema>;

/** The settings screen's parts and the read / manage actions behind each. */
export const SETTINGS_PART_ACTIONS = {
  settings: { read: 'settings.read', manage: 'settings.manage' },
  models: { read: 'model.read', manage: 'model.manage' },
  modules: { read: 'module.read', manage: 'module.manage' },
} as const satisfies Record<string, { read: Action; manage: Action }>;
export type SettingsPart = keyof typeof SETTINGS_PART_ACTIONS;

const ScopeSchema = z.enum(['all', 'group', 'none']);
const ACTIONS = Object.keys(ACTION_RULES) as Action[];

/** The signed-in user's page-level abilities, sent with the session (`/auth/me`, sign-in). */
export const SessionAbilitiesSchema = z.object({
  pages: PageAbilitiesSchema,
  settings: z.object({ settings: SettingsAccessSchema, models: SettingsAccessSchema, modules: SettingsAccessSchema }),
  /**
   * How far the user's right to each action reaches (`all`, `group` or `none`), for the
   * controls that act on no particular object (create, import, export, the announcements).
   */
  actions: z.object(Object.fromEntries(ACTIONS.map((a) => [a, ScopeSchema])) as Record<Action, typeof ScopeSchema>),
});
export type SessionAbilities = z.infer<typeof SessionAbilitiesSchema>;
