import { z } from 'zod';
import { StatsOverviewQuerySchema, UsageOverviewSchema } from '../stats.js';
import {
  AdminCreditHistoryQuerySchema,
  CreditOperationBodySchema,
  CreditOperationResultSchema,
  CreditTransactionSchema,
} from './admin-credits.js';
import {
  CreateGroupBodySchema,
  CreditsPoolBodySchema,
  DistributeCreditsBodySchema,
  GroupSchema,
  GroupSiteConfigBodySchema,
  UpdateGroupBodySchema,
  UserLimitBodySchema,
} from './admin-groups.js';
import {
  AdminUserDetailSchema,
  AdminUserListQuerySchema,
  AdminUserSchema,
  BulkUsersBodySchema,
  BulkUsersResultSchema,
  CreateAdminUserBodySchema,
  ResetPasswordBodySchema,
  UpdateAdminUserBodySchema,
  UserStatusBodySchema,
} from './admin-users.js';
import {
  AdminModelSchema,
  CreateModelBodySchema,
  DiscoverModelsBodySchema,
  DiscoverModelsResultSchema,
  ModelTestResultSchema,
  SortOrderBodySchema,
  UpdateModelBodySchema,
} from './admin-models.js';
import { AdminModuleSchema, CreateModuleBodySchema, UpdateModuleBodySchema } from './admin-modules.js';
import { GroupIdsBodySchema, GroupIdsResultSchema } from './catalog.js';
import {
  AdminSettingsSchema,
  HomepageBodySchema,
  HomepageSchema,
  SettingsUpdateBodySchema,
  StorageUsageSchema,
} from './admin-settings.js';
import { AnnouncementBodySchema, AnnouncementSchema } from '../announcements.js';
import {
  AuditCheckpointRecordSchema,
  AuditCheckpointSchema,
  AuditListQuerySchema,
  AuditLogSchema,
  AuditVerifyResultSchema,
} from './audit.js';
import { AdminPageQuerySchema } from './pagination.js';

/**
 * Every JSON admin call described once: method, path (with `:id` parameters), body,
 * query and the `data` it answers with. The server registers its routes from these and
 * the web client calls through them, so the two cannot drift apart. File transfers
 * (CSV export and import) are plain HTTP and documented at their routes.
 */
export interface CallSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: z.ZodType;
  query?: z.ZodType;
  response: z.ZodType;
  /** Lists answer `pagination` beside `data`. */
  paginated?: boolean;
  /** Created resources answer 201. */
  status?: 201;
}

const IdResult = z.object({ id: z.number() });

export const ADMIN_CALLS = {
  listUsers: {
    method: 'GET',
    path: '/admin/users',
    query: AdminUserListQuerySchema,
    response: z.array(AdminUserSchema),
    paginated: true,
  },
  createUser: {
    method: 'POST',
    path: '/admin/users',
    body: CreateAdminUserBodySchema,
    response: AdminUserSchema,
    status: 201,
  },
  getUser: { method: 'GET', path: '/admin/users/:id', response: AdminUserDetailSchema },
  updateUser: { method: 'PUT', path: '/admin/users/:id', body: UpdateAdminUserBodySchema, response: AdminUserSchema },
  deleteUser: { method: 'DELETE', path: '/admin/users/:id', response: IdResult },
  setUserStatus: {
    method: 'PUT',
    path: '/admin/users/:id/status',
    body: UserStatusBodySchema,
    response: AdminUserSchema,
  },
  resetPassword: {
    method: 'PUT',
    path: '/admin/users/:id/password',
    body: ResetPasswordBodySchema,
    response: IdResult,
  },
  bulkUsers: { method: 'POST', path: '/admin/users/bulk', body: BulkUsersBodySchema, response: BulkUsersResultSchema },
  adjustCredits: {
    method: 'POST',
    path: '/admin/users/:id/credits',
    body: CreditOperationBodySchema,
    response: CreditOperationResultSchema,
  },
  creditHistory: {
    method: 'GET',
    path: '/admin/users/:id/credits/history',
    query: AdminCreditHistoryQuerySchema,
    response: z.array(CreditTransactionSchema),
    paginated: true,
  },
  listGroups: {
    method: 'GET',
    path: '/admin/user-groups',
    query: AdminPageQuerySchema,
    response: z.array(GroupSchema),
    paginated: true,
  },
  createGroup: {
    method: 'POST',
    path: '/admin/user-groups',
    body: CreateGroupBodySchema,
    response: GroupSchema,
    status: 201,
  },
  getGroup: { method: 'GET', path: '/admin/user-groups/:id', response: GroupSchema },
  updateGroup: { method: 'PUT', path: '/admin/user-groups/:id', body: UpdateGroupBodySchema, response: GroupSchema },
  deleteGroup: { method: 'DELETE', path: '/admin/user-groups/:id', response: IdResult },
  setCreditsPool: {
    method: 'PUT',
    path: '/admin/user-groups/:id/credits-pool',
    body: CreditsPoolBodySchema,
    response: GroupSchema,
  },
  setUserLimit: {
    method: 'PUT',
    path: '/admin/user-groups/:id/user-limit',
    body: UserLimitBodySchema,
    response: GroupSchema,
  },
  setGroupSiteConfig: {
    method: 'PUT',
    path: '/admin/user-groups/:id/site-config',
    body: GroupSiteConfigBodySchema,
    response: GroupSchema,
  },
  distributeCredits: {
    method: 'POST',
    path: '/admin/user-groups/:id/distribute-credits',
    body: DistributeCreditsBodySchema,
    response: z.object({ group: GroupSchema, user: AdminUserSchema, transaction: CreditTransactionSchema }),
  },
  listAuditLogs: {
    method: 'GET',
    path: '/admin/audit-logs',
    query: AuditListQuerySchema,
    response: z.array(AuditLogSchema),
    paginated: true,
  },
  verifyAuditLogs: { method: 'GET', path: '/admin/audit-logs/verify', response: AuditVerifyResultSchema },
  // Signed checkpoints of the chain head: kept by the server and, downloaded, by the administrator.
  listAuditCheckpoints: {
    method: 'GET',
    path: '/admin/audit-logs/checkpoints',
    query: AdminPageQuerySchema,
    response: z.array(AuditCheckpointRecordSchema),
    paginated: true,
  },
  createAuditCheckpoint: {
    method: 'POST',
    path: '/admin/audit-logs/checkpoints',
    response: AuditCheckpointRecordSchema,
    status: 201,
  },
  /** The chain compared with a checkpoint kept outside the server (a refused signature answers 400). */
  verifyAuditCheckpoint: {
    method: 'POST',
    path: '/admin/audit-logs/checkpoints/verify',
    body: AuditCheckpointSchema,
    response: AuditVerifyResultSchema,
  },

  // AI models. Lists are short and shown whole (drag-to-sort needs every row), so not paginated.
  listModels: { method: 'GET', path: '/admin/models', response: z.array(AdminModelSchema) },
  createModel: {
    method: 'POST',
    path: '/admin/models',
    body: CreateModelBodySchema,
    response: AdminModelSchema,
    status: 201,
  },
  updateModel: { method: 'PUT', path: '/admin/models/:id', body: UpdateModelBodySchema, response: AdminModelSchema },
  deleteModel: { method: 'DELETE', path: '/admin/models/:id', response: IdResult },
  testModel: { method: 'POST', path: '/admin/models/:id/test', response: ModelTestResultSchema },
  sortModels: {
    method: 'PUT',
    path: '/admin/models/sort-order',
    body: SortOrderBodySchema,
    response: z.array(AdminModelSchema),
  },
  getModelGroups: { method: 'GET', path: '/admin/models/:id/groups', response: GroupIdsResultSchema },
  setModelGroups: {
    method: 'PUT',
    path: '/admin/models/:id/groups',
    body: GroupIdsBodySchema,
    response: GroupIdsResultSchema,
  },
  discoverModels: {
    method: 'POST',
    path: '/admin/models/discover',
    body: DiscoverModelsBodySchema,
    response: DiscoverModelsResultSchema,
  },

  // Modules (the organisation's other web apps).
  listModules: { method: 'GET', path: '/admin/modules', response: z.array(AdminModuleSchema) },
  createModule: {
    method: 'POST',
    path: '/admin/modules',
    body: CreateModuleBodySchema,
    response: AdminModuleSchema,
    status: 201,
  },
  updateModule: {
    method: 'PUT',
    path: '/admin/modules/:id',
    body: UpdateModuleBodySchema,
    response: AdminModuleSchema,
  },
  deleteModule: { method: 'DELETE', path: '/admin/modules/:id', response: IdResult },
  toggleModule: { method: 'PATCH', path: '/admin/modules/:id/toggle-status', response: AdminModuleSchema },
  checkModuleHealth: { method: 'POST', path: '/admin/modules/:id/check-health', response: AdminModuleSchema },

  // System settings and the custom homepage.
  getSettings: { method: 'GET', path: '/admin/settings', response: AdminSettingsSchema },
  updateSettings: {
    method: 'PUT',
    path: '/admin/settings',
    body: SettingsUpdateBodySchema,
    response: AdminSettingsSchema,
  },
  getStorageUsage: { method: 'GET', path: '/admin/settings/storage-usage', response: StorageUsageSchema },
  getHomepage: { method: 'GET', path: '/admin/settings/custom-homepage', response: HomepageSchema },
  updateHomepage: {
    method: 'PUT',
    path: '/admin/settings/custom-homepage',
    body: HomepageBodySchema,
    response: HomepageSchema,
  },

  // Announcements: the system one (any signed-in user reads it) and one per group.
  getAnnouncement: { method: 'GET', path: '/admin/announcement', response: AnnouncementSchema },
  updateAnnouncement: {
    method: 'PUT',
    path: '/admin/announcement',
    body: AnnouncementBodySchema,
    response: AnnouncementSchema,
  },
  getGroupAnnouncement: { method: 'GET', path: '/admin/user-groups/:id/announcement', response: AnnouncementSchema },
  updateGroupAnnouncement: {
    method: 'PUT',
    path: '/admin/user-groups/:id/announcement',
    body: AnnouncementBodySchema,
    response: AnnouncementSchema,
  },

  // Usage statistics: every group for the super administrator, their own group for a group administrator.
  statsOverview: {
    method: 'GET',
    path: '/admin/stats/overview',
    query: StatsOverviewQuerySchema,
    response: UsageOverviewSchema,
  },
} as const satisfies Record<string, CallSpec>;

export type AdminCallName = keyof typeof ADMIN_CALLS;
type Spec<N extends AdminCallName> = (typeof ADMIN_CALLS)[N];
/** What a call answers with in `data`. */
export type AdminCallResult<N extends AdminCallName> = z.infer<Spec<N>['response']>;
/** The body a caller sends (before server-side defaults). */
export type AdminCallBody<N extends AdminCallName> =
  Spec<N> extends { body: z.ZodType } ? z.input<Spec<N>['body']> : never;
export type AdminCallQuery<N extends AdminCallName> =
  Spec<N> extends { query: z.ZodType } ? Partial<z.input<Spec<N>['query']>> : never;

/** Fills `:name` parameters of a call's path. */
export function adminCallPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** The CSV transfers, outside the JSON calls. */
export const ADMIN_FILE_PATHS = {
  usersExport: '/admin/users/export.csv',
  usersImport: '/admin/users/import',
  auditExport: '/admin/audit-logs/export.csv',
  /** `?days=&group_id=`: one row per day, user and model, for charging usage back to departments. */
  statsExport: '/admin/stats/export.csv',
  /** multipart field `logo`; PNG, JPEG, GIF or WebP by content. */
  uploadLogo: '/admin/settings/upload-logo',
  /** multipart field `favicon`; ICO, PNG, JPEG, GIF or WebP by content. */
  uploadFavicon: '/admin/settings/upload-favicon',
} as const;
