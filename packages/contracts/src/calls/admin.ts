import { z } from 'zod';
import { EraseUserBodySchema, EraseUserResultSchema } from '../personal-data.js';
import { StatsOverviewQuerySchema, UsageOverviewSchema } from '../stats.js';
import {
  AdminCreditHistoryQuerySchema,
  CreditOperationBodySchema,
  CreditOperationResultSchema,
  CreditTransactionSchema,
} from '../admin/admin-credits.js';
import {
  CreateGroupBodySchema,
  CreditsPoolBodySchema,
  DistributeCreditsBodySchema,
  GroupSchema,
  GroupSiteConfigBodySchema,
  UpdateGroupBodySchema,
  UserLimitBodySchema,
} from '../admin/admin-groups.js';
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
} from '../admin/admin-users.js';
import {
  AdminModelSchema,
  CreateModelBodySchema,
  DiscoverModelsBodySchema,
  DiscoverModelsResultSchema,
  ModelTestResultSchema,
  SortOrderBodySchema,
  UpdateModelBodySchema,
} from '../admin/admin-models.js';
import { AdminModuleSchema, CreateModuleBodySchema, UpdateModuleBodySchema } from '../admin/admin-modules.js';
import { GroupIdsBodySchema, GroupIdsResultSchema } from '../admin/catalog.js';
import {
  AdminSettingsSchema,
  HomepageBodySchema,
  HomepageSchema,
  SettingsUpdateBodySchema,
  StorageUsageSchema,
} from '../admin/admin-settings.js';
import { AnnouncementBodySchema, AnnouncementSchema } from '../announcements.js';
import {
  AuditCheckpointRecordSchema,
  AuditCheckpointSchema,
  AuditListQuerySchema,
  AuditLogSchema,
  AuditVerifyResultSchema,
} from '../admin/audit.js';
import { AdminPageQuerySchema } from '../admin/pagination.js';

import type { CallSpec } from './spec.js';

const IdResult = z.object({ id: z.number() });

/** The administration's calls; each route checks `access` before it reads the request. */
export const ADMIN_CALLS = {
  listUsers: {
    method: 'GET',
    path: '/admin/users',
    access: 'user.read',
    query: AdminUserListQuerySchema,
    response: z.array(AdminUserSchema),
    paginated: true,
  },
  createUser: {
    method: 'POST',
    path: '/admin/users',
    access: 'user.create',
    body: CreateAdminUserBodySchema,
    response: AdminUserSchema,
    status: 201,
  },
  getUser: { method: 'GET', path: '/admin/users/:id', access: 'user.read', response: AdminUserDetailSchema },
  updateUser: {
    method: 'PUT',
    path: '/admin/users/:id',
    access: 'user.update',
    body: UpdateAdminUserBodySchema,
    response: AdminUserSchema,
  },
  deleteUser: { method: 'DELETE', path: '/admin/users/:id', access: 'user.delete', response: IdResult },
  /** Anonymises the account and removes its content (not while it is under legal hold); audited with the reason. */
  eraseUser: {
    method: 'POST',
    path: '/admin/users/:id/erase',
    access: 'user.erase',
    body: EraseUserBodySchema,
    response: EraseUserResultSchema,
  },
  setUserStatus: {
    method: 'PUT',
    path: '/admin/users/:id/status',
    access: 'user.status',
    body: UserStatusBodySchema,
    response: AdminUserSchema,
  },
  resetPassword: {
    method: 'PUT',
    path: '/admin/users/:id/password',
    access: 'user.password',
    body: ResetPasswordBodySchema,
    response: IdResult,
  },
  bulkUsers: {
    method: 'POST',
    path: '/admin/users/bulk',
    access: 'user.status',
    body: BulkUsersBodySchema,
    response: BulkUsersResultSchema,
  },
  adjustCredits: {
    method: 'POST',
    path: '/admin/users/:id/credits',
    access: 'credits.adjust',
    body: CreditOperationBodySchema,
    response: CreditOperationResultSchema,
  },
  creditHistory: {
    method: 'GET',
    path: '/admin/users/:id/credits/history',
    access: 'credits.read',
    query: AdminCreditHistoryQuerySchema,
    response: z.array(CreditTransactionSchema),
    paginated: true,
  },
  listGroups: {
    method: 'GET',
    path: '/admin/user-groups',
    access: 'group.read',
    query: AdminPageQuerySchema,
    response: z.array(GroupSchema),
    paginated: true,
  },
  createGroup: {
    method: 'POST',
    path: '/admin/user-groups',
    access: 'group.manage',
    body: CreateGroupBodySchema,
    response: GroupSchema,
    status: 201,
  },
  getGroup: { method: 'GET', path: '/admin/user-groups/:id', access: 'group.read', response: GroupSchema },
  updateGroup: {
    method: 'PUT',
    path: '/admin/user-groups/:id',
    access: 'group.manage',
    body: UpdateGroupBodySchema,
    response: GroupSchema,
  },
  deleteGroup: { method: 'DELETE', path: '/admin/user-groups/:id', access: 'group.manage', response: IdResult },
  setCreditsPool: {
    method: 'PUT',
    path: '/admin/user-groups/:id/credits-pool',
    access: 'group.manage',
    body: CreditsPoolBodySchema,
    response: GroupSchema,
  },
  setUserLimit: {
    method: 'PUT',
    path: '/admin/user-groups/:id/user-limit',
    access: 'group.manage',
    body: UserLimitBodySchema,
    response: GroupSchema,
  },
  setGroupSiteConfig: {
    method: 'PUT',
    path: '/admin/user-groups/:id/site-config',
    access: 'group.manage',
    body: GroupSiteConfigBodySchema,
    response: GroupSchema,
  },
  distributeCredits: {
    method: 'POST',
    path: '/admin/user-groups/:id/distribute-credits',
    access: 'group.pool.transfer',
    body: DistributeCreditsBodySchema,
    response: z.object({ group: GroupSchema, user: AdminUserSchema, transaction: CreditTransactionSchema }),
  },
  listAuditLogs: {
    method: 'GET',
    path: '/admin/audit-logs',
    access: 'audit.read',
    query: AuditListQuerySchema,
    response: z.array(AuditLogSchema),
    paginated: true,
  },
  verifyAuditLogs: {
    method: 'GET',
    path: '/admin/audit-logs/verify',
    access: 'audit.read',
    response: AuditVerifyResultSchema,
  },
  // Signed checkpoints of the chain head: kept by the server and, downloaded, by the administrator.
  listAuditCheckpoints: {
    method: 'GET',
    path: '/admin/audit-logs/checkpoints',
    access: 'audit.read',
    query: AdminPageQuerySchema,
    response: z.array(AuditCheckpointRecordSchema),
    paginated: true,
  },
  createAuditCheckpoint: {
    method: 'POST',
    path: '/admin/audit-logs/checkpoints',
    access: 'audit.checkpoint',
    response: AuditCheckpointRecordSchema,
    status: 201,
  },
  /** The chain compared with a checkpoint kept outside the server (a refused signature answers 400). */
  verifyAuditCheckpoint: {
    method: 'POST',
    path: '/admin/audit-logs/checkpoints/verify',
    access: 'audit.read',
    body: AuditCheckpointSchema,
    response: AuditVerifyResultSchema,
  },

  // AI models. Lists are short and shown whole (drag-to-sort needs every row), so not paginated.
  listModels: { method: 'GET', path: '/admin/models', access: 'model.read', response: z.array(AdminModelSchema) },
  createModel: {
    method: 'POST',
    path: '/admin/models',
    access: 'model.manage',
    body: CreateModelBodySchema,
    response: AdminModelSchema,
    status: 201,
  },
  updateModel: {
    method: 'PUT',
    path: '/admin/models/:id',
    access: 'model.manage',
    body: UpdateModelBodySchema,
    response: AdminModelSchema,
  },
  deleteModel: { method: 'DELETE', path: '/admin/models/:id', access: 'model.manage', response: IdResult },
  testModel: {
    method: 'POST',
    path: '/admin/models/:id/test',
    access: 'model.manage',
    response: ModelTestResultSchema,
  },
  sortModels: {
    method: 'PUT',
    path: '/admin/models/sort-order',
    access: 'model.manage',
    body: SortOrderBodySchema,
    response: z.array(AdminModelSchema),
  },
  getModelGroups: {
    method: 'GET',
    path: '/admin/models/:id/groups',
    access: 'model.read',
    response: GroupIdsResultSchema,
  },
  setModelGroups: {
    method: 'PUT',
    path: '/admin/models/:id/groups',
    access: 'model.manage',
    body: GroupIdsBodySchema,
    response: GroupIdsResultSchema,
  },
  discoverModels: {
    method: 'POST',
    path: '/admin/models/discover',
    access: 'model.manage',
    body: DiscoverModelsBodySchema,
    response: DiscoverModelsResultSchema,
  },

  // Modules (the organisation's other web apps).
  listModules: { method: 'GET', path: '/admin/modules', access: 'module.read', response: z.array(AdminModuleSchema) },
  createModule: {
    method: 'POST',
    path: '/admin/modules',
    access: 'module.manage',
    body: CreateModuleBodySchema,
    response: AdminModuleSchema,
    status: 201,
  },
  updateModule: {
    method: 'PUT',
    path: '/admin/modules/:id',
    access: 'module.manage',
    body: UpdateModuleBodySchema,
    response: AdminModuleSchema,
  },
  deleteModule: { method: 'DELETE', path: '/admin/modules/:id', access: 'module.manage', response: IdResult },
  toggleModule: {
    method: 'PATCH',
    path: '/admin/modules/:id/toggle-status',
    access: 'module.manage',
    response: AdminModuleSchema,
  },
  checkModuleHealth: {
    method: 'POST',
    path: '/admin/modules/:id/check-health',
    access: 'module.manage',
    response: AdminModuleSchema,
  },

  // System settings and the custom homepage.
  getSettings: { method: 'GET', path: '/admin/settings', access: 'settings.read', response: AdminSettingsSchema },
  updateSettings: {
    method: 'PUT',
    path: '/admin/settings',
    access: 'settings.manage',
    body: SettingsUpdateBodySchema,
    response: AdminSettingsSchema,
  },
  getStorageUsage: {
    method: 'GET',
    path: '/admin/settings/storage-usage',
    access: 'settings.read',
    response: StorageUsageSchema,
  },
  getHomepage: {
    method: 'GET',
    path: '/admin/settings/custom-homepage',
    access: 'settings.read',
    response: HomepageSchema,
  },
  updateHomepage: {
    method: 'PUT',
    path: '/admin/settings/custom-homepage',
    access: 'settings.manage',
    body: HomepageBodySchema,
    response: HomepageSchema,
  },

  // Announcements: the system one (any signed-in user reads it) and one per group.
  getAnnouncement: { method: 'GET', path: '/admin/announcement', access: 'signedIn', response: AnnouncementSchema },
  updateAnnouncement: {
    method: 'PUT',
    path: '/admin/announcement',
    access: 'announcement.manage',
    body: AnnouncementBodySchema,
    response: AnnouncementSchema,
  },
  getGroupAnnouncement: {
    method: 'GET',
    path: '/admin/user-groups/:id/announcement',
    access: 'group.announcement',
    response: AnnouncementSchema,
  },
  updateGroupAnnouncement: {
    method: 'PUT',
    path: '/admin/user-groups/:id/announcement',
    access: 'group.announcement',
    body: AnnouncementBodySchema,
    response: AnnouncementSchema,
  },

  // Usage statistics: every group for the super administrator, their own group for a group administrator.
  statsOverview: {
    method: 'GET',
    path: '/admin/stats/overview',
    access: 'stats.read',
    query: StatsOverviewQuerySchema,
    response: UsageOverviewSchema,
  },
} as const satisfies Record<string, CallSpec>;
