import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Clock } from '../../lib/runtime/clock.js';
import { AuditCheckpoints } from '../audit/audit-checkpoints.service.js';
import { AuditCheckpointsRepo } from '../audit/audit-checkpoints.repo.js';
import { AuditKey } from '../audit/audit-key.js';
import { AuditRepo } from '../audit/audit.repo.js';
import { AuditService } from '../audit/audit.service.js';
import type { SessionCache } from '../../lib/auth/session-cache.js';
import { SessionRepo } from '../auth/session.repo.js';
import { AdminCreditsService } from '../credits/admin-credits.service.js';
import { AdminLedgerRepo } from '../credits/admin-ledger.repo.js';
import { GroupGrantsRepo } from '../groups/group-grants.repo.js';
import { GroupPermissionsRepo } from '../groups/group-permissions.repo.js';
import { GroupPoolService } from '../groups/group-pool.service.js';
import type { GroupsRepo } from '../groups/groups.repo.js';
import { GroupsService } from '../groups/groups.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { AdminUsersRepo } from '../users/admin-users.repo.js';
import { AdminUsersService } from '../users/admin-users.service.js';
import { UserImportService } from '../users/user-import.service.js';
import type { UsersRepo } from '../users/users.repo.js';
import { AdminTransactions } from '../audit/admin-tx.js';
import { ApiKeysRepo } from '../api-keys/api-keys.repo.js';
import { IdempotencyRepo } from '../audit/idempotency.repo.js';

/** Wires the admin side: users, credits, groups and their pools, the audit log. */
export function createAdminServices(d: {
  db: Kysely<Database>;
  users: UsersRepo;
  groups: GroupsRepo;
  settings: SettingsService;
  clock: Clock;
  /** The application secret (the audit log's key is derived from it). */
  secret: string;
  /** Told after a pool change commits (the low-pool email). */
  onPoolChanged?: (groupId: number) => void;
  /** Emptied after every committed change: users' roles, status, groups, grants and sessions live in it. */
  sessionCache?: SessionCache;
}) {
  const sessionsChanged = d.sessionCache ? () => d.sessionCache!.changed() : undefined;
  const onPoolChanged = d.onPoolChanged ?? (() => undefined);
  const auditDeps = {
    repo: new AuditRepo(d.db),
    checkpoints: new AuditCheckpointsRepo(d.db),
    key: new AuditKey(d.secret),
  };
  const audit = new AuditService(auditDeps);
  const auditCheckpoints = new AuditCheckpoints({ ...auditDeps, db: d.db, clock: d.clock });
  const idempotency = new IdempotencyRepo(d.db);
  const tx = new AdminTransactions(d.db, audit, idempotency, d.clock, sessionsChanged);
  const users = new AdminUsersService({
    db: d.db,
    users: d.users,
    adminUsers: new AdminUsersRepo(d.db),
    groups: d.groups,
    sessions: new SessionRepo(d.db, sessionsChanged),
    apiKeys: new ApiKeysRepo(d.db),
    settings: d.settings,
    tx,
    clock: d.clock,
    onPoolChanged,
  });
  const credits = new AdminCreditsService({
    users: d.users,
    adminUsers: users,
    ledger: new AdminLedgerRepo(d.db),
    tx,
    clock: d.clock,
  });
  const groups = new GroupsService({
    groups: d.groups,
    grants: new GroupGrantsRepo(d.db),
    permissions: new GroupPermissionsRepo(d.db),
    tx,
    clock: d.clock,
    onPoolChanged,
  });
  const pool = new GroupPoolService({ groups: d.groups, groupsService: groups, adminUsers: users, tx, onPoolChanged });
  const imports = new UserImportService({ users: d.users, groups: d.groups, settings: d.settings, tx, onPoolChanged });
  return { audit, auditCheckpoints, idempotency, tx, users, credits, groups, pool, imports };
}
export type AdminServices = ReturnType<typeof createAdminServices>;
