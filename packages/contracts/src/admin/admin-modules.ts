import { z } from 'zod';
import { MODULE_OPEN_MODES } from '../modules.js';
import { HttpUrlSchema } from './admin-models.js';
import { GroupIdsSchema } from './catalog.js';

export const MODULE_AUTH_MODES = ['none', 'signed_token'] as const;
export type ModuleAuthMode = (typeof MODULE_AUTH_MODES)[number];
export const MODULE_HEALTH = ['up', 'down', 'unknown'] as const;

/** A module (another web app of the organisation) as the administration sees it. */
export const AdminModuleSchema = z.object({
  id: z.number(),
  name: z.string(),
  display_name: z.string(),
  description: z.string(),
  menu_icon: z.string(),
  module_url: z.string(),
  open_mode: z.enum(MODULE_OPEN_MODES),
  is_active: z.boolean(),
  sort_order: z.number(),
  /** Groups that see it; empty = every group. */
  group_ids: z.array(z.number()),
  auth_mode: z.enum(MODULE_AUTH_MODES),
  health_check_url: z.string().nullable(),
  health_status: z.enum(MODULE_HEALTH),
  health_checked_at: z.string().nullable(),
  health_latency_ms: z.number().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AdminModule = z.infer<typeof AdminModuleSchema>;

const ModuleFields = {
  /** Used in the route /module/{name}: lower-case letters, digits, - and _. */
  name: z
    .string({ error: 'validation.moduleName.required' })
    .trim()
    .min(1, 'validation.moduleName.required')
    .max(64, 'validation.moduleName.pattern')
    .regex(/^[a-z0-9][a-z0-9_-]*$/, 'validation.moduleName.pattern'),
  display_name: z
    .string({ error: 'validation.displayName.required' })
    .trim()
    .min(1, 'validation.displayName.required')
    .max(100, 'validation.displayName.max'),
  description: z.string().trim().max(500, 'validation.description.max'),
  menu_icon: z
    .string()
    .trim()
    .max(64, 'validation.menuIcon.invalid')
    .regex(/^[A-Za-z]*$/, 'validation.menuIcon.invalid'),
  module_url: HttpUrlSchema,
  open_mode: z.enum(MODULE_OPEN_MODES, { error: 'validation.openMode.invalid' }),
  is_active: z.boolean(),
  sort_order: z.number({ error: 'validation.sort.invalid' }).int('validation.sort.invalid').min(0).max(100_000),
  group_ids: GroupIdsSchema,
  auth_mode: z.enum(MODULE_AUTH_MODES, { error: 'validation.authMode.invalid' }),
  health_check_url: HttpUrlSchema.nullable(),
};

/** POST /admin/modules: name, display name and URL are required. */
export const CreateModuleBodySchema = z.object({
  name: ModuleFields.name,
  display_name: ModuleFields.display_name,
  module_url: ModuleFields.module_url,
  description: ModuleFields.description.optional(),
  menu_icon: ModuleFields.menu_icon.optional(),
  open_mode: ModuleFields.open_mode.optional(),
  is_active: ModuleFields.is_active.optional(),
  sort_order: ModuleFields.sort_order.optional(),
  group_ids: ModuleFields.group_ids.optional(),
  auth_mode: ModuleFields.auth_mode.optional(),
  health_check_url: ModuleFields.health_check_url.optional(),
});
export type CreateModuleBody = z.infer<typeof CreateModuleBodySchema>;
export const UpdateModuleBodySchema = CreateModuleBodySchema.partial();
export type UpdateModuleBody = z.infer<typeof UpdateModuleBodySchema>;

/** GET /modules/{name}/auth-url: the module URL, with a signed token when the module asks for one. */
export const ModuleAuthUrlSchema = z.object({
  url: z.string(),
  /** Seconds the token stays valid; null when the module takes no token. */
  expires_in: z.number().nullable(),
});
export type ModuleAuthUrl = z.infer<typeof ModuleAuthUrlSchema>;
