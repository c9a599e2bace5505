import { z } from 'zod';
import { CreditAmountSchema, ReasonSchema } from './admin-credits.js';
import { ROW_ID_MAX } from './pagination.js';
import { GroupAbilitiesSchema } from './abilities.js';
import { PERMISSIONS } from '../permissions.js';
import { RetentionDaysSchema } from '../retention.js';

export const GroupSchema = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  color: z.string(),
  sort_order: z.number(),
  status: z.enum(['active', 'inactive']),
  user_count: z.number(),
  user_limit: z.number().nullable(),
  /** Days its members' conversations are kept after their last use, over the site's (null: the site's). */
  retention_days: z.number().nullable(),
  credits_pool: z.number(),
  credits_pool_used: z.number(),
  credits_pool_remaining: z.number(),
  site_name: z.string().nullable(),
  site_logo: z.string().nullable(),
  site_config_enabled: z.boolean(),
  avg_credits_used: z.number(),
  avg_tokens_used: z.number(),
  created_at: z.string(),
  /** Permissions every member holds beyond their role's (e.g. `api.keys`), sorted. */
  permissions: z.array(z.string()),
  /** What the asking administrator may do to this group, decided by the server's policy. */
  abilities: GroupAbilitiesSchema,
});
export type Group = z.infer<typeof GroupSchema>;

const ColorSchema = z
  .string({ error: 'validation.color.invalid' })
  .regex(/^#[0-9a-fA-F]{6}$/, 'validation.color.invalid');
const GroupFields = {
  name: z
    .string({ error: 'validation.groupName.required' })
    .trim()
    .min(1, 'validation.groupName.required')
    .max(100, 'validation.groupName.max'),
  description: z.string().trim().max(500, 'validation.description.max'),
  color: ColorSchema,
  sort_order: z.number({ error: 'validation.sort.invalid' }).int('validation.sort.invalid').min(0).max(100_000),
  status: z.enum(['active', 'inactive'], { error: 'validation.status.invalid' }),
};
export const UserLimitSchema = z
  .number({ error: 'validation.userLimit.invalid' })
  .int('validation.userLimit.invalid')
  .min(1, 'validation.userLimit.invalid')
  .max(1_000_000, 'validation.userLimit.invalid')
  .nullable();

/** POST /admin/user-groups: only the name is required. */
export const CreateGroupBodySchema = z.object({
  name: GroupFields.name,
  description: GroupFields.description.optional(),
  color: GroupFields.color.optional(),
  sort_order: GroupFields.sort_order.optional(),
  status: GroupFields.status.optional(),
  user_limit: UserLimitSchema.optional(),
  retention_days: RetentionDaysSchema.optional(),
  /**
   * Permissions granted to every member (replacing the group's list). Only a super
   * administrator may change them; the unchanged list echoed back is no change.
   */
  permissions: z
    .array(z.enum(PERMISSIONS, { error: 'validation.permission.invalid' }))
    .max(PERMISSIONS.length)
    .optional(),
});
export type CreateGroupBody = z.infer<typeof CreateGroupBodySchema>;
const SiteNameSchema = z.string().trim().max(100, 'validation.siteName.max').nullable();
const SiteLogoSchema = z.string().trim().max(1000, 'validation.siteLogo.max').nullable();

/**
 * PUT /admin/user-groups/{id}: any subset of the create fields, plus the group's fields that
 * have their own call, so none is dropped silently. The site identity (`site_name`,
 * `site_logo`, `site_config_enabled`) is applied with the site-config call's rules. A changed
 * `credits_pool` is refused (400) naming the pool call, which keeps the pool's ledger; the
 * stored value echoed back is no change. Read-only figures (counts, usage, dates) and unknown
 * fields are stripped.
 */
export const UpdateGroupBodySchema = CreateGroupBodySchema.partial().extend({
  site_name: SiteNameSchema.optional(),
  site_logo: SiteLogoSchema.optional(),
  site_config_enabled: z.boolean({ error: 'validation.status.invalid' }).optional(),
  credits_pool: z.number({ error: 'validation.group.creditsPoolViaPoolCall' }).optional(),
});
export type UpdateGroupBody = z.infer<typeof UpdateGroupBodySchema>;

export const UserLimitBodySchema = z.object({ user_limit: UserLimitSchema });
export const CreditsPoolBodySchema = z.object({ credits_pool: CreditAmountSchema });
export const GroupSiteConfigBodySchema = z.object({
  site_name: SiteNameSchema,
  site_logo: SiteLogoSchema,
  enabled: z.boolean({ error: 'validation.status.invalid' }),
});
export type GroupSiteConfigBody = z.infer<typeof GroupSiteConfigBodySchema>;

export const POOL_OPERATIONS = ['distribute', 'reclaim'] as const;
/** POST /admin/user-groups/{id}/distribute-credits: moves credits between the pool and a member. */
export const DistributeCreditsBodySchema = z
  .object({
    user_id: z
      .number({ error: 'validation.user.required' })
      .int()
      .min(1, 'validation.user.required')
      .max(ROW_ID_MAX, 'validation.user.required'),
    amount: CreditAmountSchema,
    reason: ReasonSchema,
    operation: z.enum(POOL_OPERATIONS, { error: 'validation.operation.invalid' }).default('distribute'),
  })
  .refine((b) => b.amount > 0, { path: ['amount'], message: 'validation.amount.positive' });
export type DistributeCreditsBody = z.infer<typeof DistributeCreditsBodySchema>;
