import type { Kysely } from 'kysely';
import type { Dialect } from './db/database.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './db/types.js';
import { randomToken } from './lib/auth/secrets.js';
import type { GroupsRepo } from './modules/groups/groups.repo.js';
import type { SettingsService } from './modules/settings/settings.service.js';
import { conflictFromDbError } from './modules/users/identity.js';
import { createAccount } from './modules/users/account-creation.js';
import type { UsersRepo } from './modules/users/users.repo.js';

export interface BootstrapResult {
  /** Set only on the start that created the super administrator. */
  createdAdmin?: { email: string; password: string; generated: boolean };
}

/**
 * Seeds what a fresh install needs: the default group (id 1), every settings section,
 * and — when there are no users yet — the super administrator.
 */
export async function bootstrap(deps: {
  db: Kysely<Database>;
  dialect: Dialect;
  users: UsersRepo;
  groups: GroupsRepo;
  settings: SettingsService;
  adminEmail?: string | undefined;
  adminPassword?: string | undefined;
  now: string;
  log: FastifyBaseLogger;
}): Promise<BootstrapResult> {
  const { db, now } = deps;
  const hasDefaultGroup = await deps.groups.findById(1, db);
  if (!hasDefaultGroup) {
    await deps.groups.insertDefault(
      {
        id: 1,
        name: 'default',
        description: 'Default group',
        color: '#1677ff',
        sort_order: 0,
        status: 'active',
        user_limit: null,
        site_name: null,
        site_logo: null,
        site_config_enabled: 0,
        created_at: now,
        updated_at: now,
      },
      deps.dialect,
    );
  }
  await deps.settings.seedDefaults();

  if ((await deps.users.countUsers()) > 0) return {};
  const email = (deps.adminEmail ?? 'admin@example.com').toLowerCase();
  const generated = !deps.adminPassword;
  const password = deps.adminPassword ?? randomToken(12);
  const settings = await deps.settings.getSettings();
  try {
    await createAccount(
      db,
      { users: deps.users, groups: deps.groups },
      {
        email,
        username: 'admin',
        phone: null,
        password,
        role: 'super_admin',
        groupId: 1,
        credits: settings.user.default_credits,
        siteMayGrant: true,
        tokens: settings.user.default_tokens,
        grantDescription: 'server.ledger.adminGrant',
        now,
      },
    );
  } catch (err) {
    // Two instances starting on an empty database: the other one created the administrator.
    if (conflictFromDbError(err)) return {};
    throw err;
  }
  return { createdAdmin: { email, password, generated } };
}
