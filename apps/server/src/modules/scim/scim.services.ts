import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Clock } from '../../lib/runtime/clock.js';
import type { AdminServices } from '../admin/admin.services.js';
import type { GroupsRepo } from '../groups/groups.repo.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UsersRepo } from '../users/users.repo.js';
import { ScimGroupsService } from './scim-groups.service.js';
import { ScimTokensRepo } from './scim-tokens.repo.js';
import { ScimTokensService } from './scim-tokens.service.js';
import { ScimUsersService } from './scim-users.service.js';
import { ScimRepo } from './scim.repo.js';

/** Wires SCIM provisioning on top of the admin services it acts through. */
export function createScimServices(d: {
  db: Kysely<Database>;
  admin: AdminServices;
  users: UsersRepo;
  groups: GroupsRepo;
  settings: SettingsService;
  clock: Clock;
  onPoolChanged: (groupId: number) => void;
}) {
  const repo = new ScimRepo(d.db);
  const tokens = new ScimTokensService({ repo: new ScimTokensRepo(d.db), tx: d.admin.tx, clock: d.clock });
  const users = new ScimUsersService({
    db: d.db,
    repo,
    users: d.users,
    groups: d.groups,
    adminUsers: d.admin.users,
    settings: d.settings,
    tx: d.admin.tx,
    onPoolChanged: d.onPoolChanged,
  });
  const groups = new ScimGroupsService({
    repo,
    groups: d.admin.groups,
    adminUsers: d.admin.users,
    settings: d.settings,
  });
  return { tokens, users, groups };
}
