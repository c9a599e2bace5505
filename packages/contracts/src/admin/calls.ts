import { z } from 'zod';
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
import { AuditListQuerySchema, AuditLogSchema, AuditVerifyResultSchema } from './audit.js';
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
} as const;
