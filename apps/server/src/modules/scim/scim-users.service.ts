import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, Db } from '../../db/types.js';
import { hashPassword } from '../../lib/auth/passwords.js';
import type { AdminContext } from '../../policies/actor.js';
import type { AdminTransactions } from '../audit/admin-tx.js';
import type { GroupsRepo } from '../groups/groups.repo.js';
import { freeUsername } from '../identity/sso-username.js';
import type { SettingsService } from '../settings/settings.service.js';
import { insertAccount } from '../users/account-creation.js';
import type { AdminUsersService } from '../users/admin-users.service.js';
import { conflictFromDbError } from '../users/identity.js';
import type { UsersRepo } from '../users/users.repo.js';
import { listResponse } from './scim-discovery.js';
import { ScimError } from './scim-errors.js';
import { type PatchOperation, type ScimJson, applyPatch } from './scim-patch.js';
import { type Paging, equalityFilter } from './scim-query.js';
import { type ScimUserInput, readUserInput, toScimUser } from './scim-user-resource.js';
import type { ScimRepo, ScimUserRow } from './scim.repo.js';

export interface ScimUsersDeps {
  db: Kysely<Database>;
  repo: ScimRepo;
  users: UsersRepo;
  groups: GroupsRepo;
  adminUsers: AdminUsersService;
  settings: SettingsService;
  tx: AdminTransactions;
  /** Told after a new account drew its opening credits from a group's pool (the low-pool email). */
  onPoolChanged: (groupId: number) => void;
}

const USER_FILTERS = new Set(['username', 'externalid', 'emails.value', 'emails', 'id']);
const uniqueness = (detail: string) => new ScimError(409, detail, 'uniqueness');
const noUser = () => new ScimError(404, 'User not found', 'noTarget');

/**
 * /Users: accounts as the directory provisions them. Accounts are created by the account
 * creation every other path uses (default group, its opening credits); disabling and
 * deleting go through the administrators' own status change and retirement, so their
 * effects (sessions ended at once on every instance) are the same whoever asks.
 */
export class ScimUsersService {
  constructor(private readonly d: ScimUsersDeps) {}

  async list(filter: string | undefined, page: Paging, base: string) {
    const f = equalityFilter(filter, USER_FILTERS);
    const { rows, total } = await this.d.repo.findUsers(f, page.startIndex - 1, page.count);
    return listResponse(
      rows.map((r) => toScimUser(r, base)),
      total,
      page.startIndex,
    );
  }

  async get(id: string, base: string): Promise<ScimJson> {
    return toScimUser(await this.existing(id), base);
  }

  async create(ctx: AdminContext, body: unknown, base: string): Promise<ScimJson> {
    const input = readUserInput(body);
    const settings = await this.d.settings.getSettings();
    const groupId = settings.user.default_group_id;
    // Nobody knows this password: the person signs in through the directory, never locally.
    const passwordHash = await hashPassword(crypto.randomBytes(32).toString('base64url'));
    const id = await this.mapConflicts(() =>
      this.d.tx.run(ctx, async (trx, now) => {
        await this.assertFree(input, 0, trx);
        const id = await insertAccount(trx, this.d, {
          email: input.email,
          // The directory's userName is often an email: its local part then names the account here.
          username: await freeUsername(
            this.d.users,
            { ...(input.userName.includes('@') ? {} : { username: input.userName }), email: input.email },
            trx,
          ),
          phone: null,
          passwordHash,
          role: 'user',
          groupId,
          credits: settings.user.default_credits,
          siteMayGrant: true,
          // The directory cannot act on an empty pool: the person gets an account without credits.
          whenPoolShort: 'open-empty',
          tokens: settings.user.default_tokens,
          operatorId: null,
          grantDescription: 'server.ledger.scimCreateGrant',
          now,
        });
        await this.d.repo.setDirectoryFields(id, directoryFields(input), now, trx);
        // A new account has no session yet, so a directory that creates it disabled needs nothing more.
        if (input.active === false) await this.d.users.update(id, { status: 'inactive' }, trx);
        return {
          result: id,
          audit: { action: 'user.create', targetType: 'user', targetId: id, after: auditFields(input) },
        };
      }),
    );
    this.d.onPoolChanged(groupId);
    return this.get(String(id), base);
  }

  /** PUT: the whole User as the directory now sees it. */
  async replace(ctx: AdminContext, id: string, body: unknown, base: string): Promise<ScimJson> {
    const user = await this.existing(id);
    await this.apply(ctx, user, readUserInput(body));
    return this.get(id, base);
  }

  async patch(ctx: AdminContext, id: string, ops: PatchOperation[], base: string): Promise<ScimJson> {
    const user = await this.existing(id);
    const resource = structuredClone(toScimUser(user, base));
    applyPatch(resource, ops);
    await this.apply(ctx, user, readUserInput(resource));
    return this.get(id, base);
  }

  /** DELETE: the account is retired (sessions end, it leaves every list); its ledger and audit rows stay. */
  async remove(ctx: AdminContext, id: string): Promise<void> {
    const user = await this.existing(id);
    await this.d.adminUsers.retire(ctx, user.id);
  }

  private async apply(ctx: AdminContext, user: ScimUserRow, input: ScimUserInput): Promise<void> {
    const before = {
      scim_user_name: user.scim_user_name,
      external_id: user.external_id,
      email: user.email,
      scim_profile: user.scim_profile,
    };
    const after = directoryFields(input);
    if (Object.entries(after).some(([k, v]) => before[k as keyof typeof before] !== v)) {
      await this.mapConflicts(() =>
        this.d.tx.run(ctx, async (trx, now) => {
          // The administrators' own check: who may change this account (never a super administrator).
          await this.d.adminUsers.lockTarget(ctx.actor, 'user.update', user.id, trx, now);
          await this.assertFree(input, user.id, trx);
          await this.d.repo.setDirectoryFields(user.id, after, now, trx);
          return {
            result: null,
            audit: { action: 'user.update', targetType: 'user', targetId: user.id, before, after },
          };
        }),
      );
    }
    if (input.active === undefined) return;
    const status = input.active ? 'active' : 'inactive';
    if (status !== user.status) await this.d.adminUsers.setStatus(ctx, user.id, status);
  }

  private async existing(id: string): Promise<ScimUserRow> {
    const user = await this.d.repo.findUser(id);
    if (!user) throw noUser();
    return user;
  }

  private async assertFree(input: ScimUserInput, ownId: number, trx: Db): Promise<void> {
    if (await this.d.repo.holderOf('scim_user_name', input.userName, ownId, trx)) throw uniqueness('userName is taken');
    // An account the directory has not named yet answers to its username or email as userName.
    const local =
      (await this.d.users.findByUsername(input.userName, trx)) ?? (await this.d.users.findByEmail(input.userName, trx));
    if (local && local.id !== ownId && local.scim_user_name === null) throw uniqueness('userName is taken');
    if (input.externalId && (await this.d.repo.holderOf('external_id', input.externalId, ownId, trx))) {
      throw uniqueness('externalId is taken');
    }
    const sameEmail = await this.d.users.findByEmail(input.email, trx);
    if (sameEmail && sameEmail.id !== ownId) throw uniqueness('email is taken');
  }

  /** A concurrent write that took the same identity ends as a 409, as the checks above would. */
  private async mapConflicts<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      const conflict = conflictFromDbError(err);
      if (conflict || /users_(external_id|scim_user_name)_uq/.test(String(err)))
        throw uniqueness('The identity is taken');
      throw err;
    }
  }
}

const directoryFields = (input: ScimUserInput) => ({
  scim_user_name: input.userName,
  external_id: input.externalId,
  email: input.email,
  scim_profile: Object.keys(input.profile).length > 0 ? JSON.stringify(input.profile) : null,
});

const auditFields = (input: ScimUserInput) => ({
  userName: input.userName,
  externalId: input.externalId,
  email: input.email,
  active: input.active ?? true,
});
