import { z } from 'zod';
import { UserSchema, UserStatusSchema } from '../auth.js';
import { EmailSchema, OptionalPhoneSchema, PasswordSchema, UsernameSchema } from '../fields.js';
import { PERMISSIONS, ROLES } from '../permissions.js';
import { UserAbilitiesSchema } from './abilities.js';
import { AdminPageQuerySchema, QueryRowIdSchema, ROW_ID_MAX } from './pagination.js';

/**
 * A user as administrators see it: the session `user` plus the admin-only fields, and what
 * the asking administrator may do to this account (`abilities`, decided by the server's policy).
 */
export const AdminUserSchema = UserSchema.extend({
  remark: z.string().nullable(),
  credits_quota: z.number(),
  credits_used: z.number(),
  credits_expire_at: z.string().nullable(),
  extra_permissions: z.array(z.string()),
  /** Set by an administrator: single sign-on's group mapping leaves this user's group alone. */
  group_pinned: z.boolean(),
  abilities: UserAbilitiesSchema,
});
export type AdminUser = z.infer<typeof AdminUserSchema>;

export const USER_SORT_FIELDS = [
  'id',
  'username',
  'created_at',
  'last_login_at',
  'credits_remaining',
  'token_used',
] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

/** `sort` is a field, `-field` for descending; unknown values fall back to newest first. */
export const UserSortSchema = z
  .string()
  .regex(new RegExp(`^-?(${USER_SORT_FIELDS.join('|')})$`))
  .catch('-id')
  .default('-id');

/** GET /admin/users and the CSV export: search matches username, email or phone. */
export const UserFilterSchema = z.object({
  search: z.string().trim().max(100).optional().catch(undefined),
  role: z.enum(ROLES).optional().catch(undefined),
  status: UserStatusSchema.optional().catch(undefined),
  group_id: QueryRowIdSchema.optional(),
  sort: UserSortSchema,
});
export type UserFilter = z.infer<typeof UserFilterSchema>;
export const AdminUserListQuerySchema = AdminPageQuerySchema.extend(UserFilterSchema.shape);
export type AdminUserListQuery = z.infer<typeof AdminUserListQuerySchema>;

const RemarkSchema = z.string().trim().max(500, 'validation.remark.max').nullable();
const GroupIdSchema = z
  .number({ error: 'validation.group.required' })
  .int()
  .min(1, 'validation.group.required')
  .max(ROW_ID_MAX, 'validation.group.notFound');
const AmountSchema = z
  .number({ error: 'validation.amount.invalid' })
  .int('validation.amount.invalid')
  .min(0, 'validation.amount.invalid')
  .max(1_000_000_000, 'validation.amount.invalid');

/** POST /admin/users: username, email and password are required. */
export const CreateAdminUserBodySchema = z.object({
  username: UsernameSchema,
  email: EmailSchema,
  password: PasswordSchema,
  phone: OptionalPhoneSchema,
  role: z.enum(ROLES, { error: 'validation.role.invalid' }).optional(),
  group_id: GroupIdSchema.optional(),
  credits_quota: AmountSchema.optional(),
  token_quota: AmountSchema.optional(),
  remark: RemarkSchema.optional(),
});
export type CreateAdminUserBody = z.infer<typeof CreateAdminUserBodySchema>;

/**
 * PUT /admin/users/{id}: any subset. Role, group and extra permissions have their own rules.
 * Known fields are never dropped silently: `status` is applied as PUT …/status would (disabling
 * ends the sessions); a changed `credits_quota` or `credits_expire_at` is refused (400) naming
 * the credits call, where a change needs its reason and writes a ledger row. Only truly unknown
 * fields are stripped.
 */
export const UpdateAdminUserBodySchema = z.object({
  username: UsernameSchema.optional(),
  email: EmailSchema.optional(),
  phone: OptionalPhoneSchema,
  role: z.enum(ROLES, { error: 'validation.role.invalid' }).optional(),
  group_id: GroupIdSchema.optional(),
  group_pinned: z.boolean().optional(),
  token_quota: AmountSchema.optional(),
  remark: RemarkSchema.optional(),
  status: z.enum(['active', 'inactive'], { error: 'validation.status.invalid' }).optional(),
  credits_quota: z.number({ error: 'validation.user.creditsQuotaViaCredits' }).optional(),
  credits_expire_at: z.string({ error: 'validation.user.creditsExpiryViaCredits' }).nullable().optional(),
  extra_permissions: z
    .array(z.enum(PERMISSIONS, { error: 'validation.permission.invalid' }))
    .max(PERMISSIONS.length)
    .optional(),
});
export type UpdateAdminUserBody = z.infer<typeof UpdateAdminUserBodySchema>;

export const UserStatusBodySchema = z.object({
  status: z.enum(['active', 'inactive'], { error: 'validation.status.invalid' }),
});
export const ResetPasswordBodySchema = z.object({ newPassword: PasswordSchema });

export const BULK_USER_ACTIONS = ['enable', 'disable', 'move'] as const;
/** POST /admin/users/bulk: one action on up to 500 selected users, all or nothing. */
export const BulkUsersBodySchema = z
  .object({
    ids: z
      .array(z.number().int().min(1).max(ROW_ID_MAX), { error: 'validation.bulk.ids' })
      .min(1, 'validation.bulk.ids')
      .max(500, 'validation.bulk.ids'),
    action: z.enum(BULK_USER_ACTIONS, { error: 'validation.bulk.action' }),
    group_id: GroupIdSchema.optional(),
  })
  .refine((b) => b.action !== 'move' || b.group_id !== undefined, {
    path: ['group_id'],
    message: 'validation.group.required',
  });
export type BulkUsersBody = z.infer<typeof BulkUsersBodySchema>;
export const BulkUsersResultSchema = z.object({ updated: z.number(), ids: z.array(z.number()) });
export type BulkUsersResult = z.infer<typeof BulkUsersResultSchema>;

/** A signed-in device of a user, for the detail drawer. */
export const UserSessionSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  last_used_at: z.string(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
});
export type UserSession = z.infer<typeof UserSessionSchema>;
export const AdminUserDetailSchema = AdminUserSchema.extend({ sessions: z.array(UserSessionSchema) });
export type AdminUserDetail = z.infer<typeof AdminUserDetailSchema>;

/** Columns of the user CSV (export writes them all; import reads the first seven). */
export const USER_CSV_IMPORT_COLUMNS = [
  'username',
  'email',
  'password',
  'phone',
  'role',
  'group_id',
  'credits',
  'remark',
] as const;
export const USER_CSV_IMPORT_MAX_ROWS = 1000;
export const UserImportQuerySchema = z.object({
  dry_run: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .catch(undefined)
    .transform((v) => v === 'true' || v === '1'),
});
export const UserImportReportSchema = z.object({
  dry_run: z.boolean(),
  total: z.number(),
  valid: z.number(),
  created: z.number(),
  /** Row numbers count the header as row 1, as a spreadsheet shows them. */
  errors: z.array(z.object({ row: z.number(), errors: z.array(z.string()) })),
});
export type UserImportReport = z.infer<typeof UserImportReportSchema>;
