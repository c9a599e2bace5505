import {
  type AdminUser,
  type AdminUserDetail,
  type AdminUserListQuery,
  type BulkUsersBody,
  type BulkUsersResult,
  type CreateAdminUserBody,
  type UpdateAdminUserBody,
  type UserFilter,
  scopeOf,
} from '@aiplatform/contracts';
import type { Kysely } from 'kysely';
import type { Database, Db, UserRow } from '../../db/types.js';
import { type Clock, iso } from '../../lib/runtime/clock.js';
import { paginate } from '../../lib/http/envelope.js';
import { AppError, InputError } from '../../lib/http/errors.js';
import { hashPassword } from '../../lib/auth/passwords.js';
import type { Actor, AdminContext } from '../../policies/actor.js';
import { userTarget, type UserTargets } from '../../policies/user-targets.js';
import { authorize, authorizeFound, can, listScope, refuseSelfAction, requireScope } from '../../policies/policy.js';
import type { AdminTransactions } from '../audit/admin-tx.js';
import { diff } from '../audit/redact.js';
import { assertIdentityFree, conflictFromDbError } from './identity.js';
import type { GroupsRepo } from '../groups/groups.repo.js';
import type { SettingsService } from '../settings/settings.service.js';
import { insertAccount, reserveGroupPlace } from './account-creation.js';
import { mayGrantOpeningCredits } from './opening-credits.js';
import { type AdminUserFields, adminUserFields, auditSnapshot, toAdminUser } from './admin-user.presenter.js';
import type { AdminUsersRepo } from './admin-users.repo.js';
import { type UsersRepo, isRowId } from './users.repo.js';

export interface AdminUsersDeps {
  db: Kysely<Database>;
  users: UsersRepo;
  adminUsers: AdminUsersRepo;
  groups: GroupsRepo;
  sessions: UserSessions;
  /** Personal API keys, revoked with the sessions when an account is disabled or retired. */
  apiKeys: UserApiKeys;
  settings: SettingsService;
  tx: AdminTransactions;
  clock: Clock;
  /** Told after a new account drew its opening credits from a group's pool (the low-pool email). */
  onPoolChanged?: (groupId: number) => void;
}

const EXPORT_BATCH = 500;

/** Both absent, or both the same moment however written (a client may re-serialise the date). */
function sameInstant(sent: string | null, stored: string | null): boolean {
  if (sent === null || stored === null) return sent === stored;
  return sent === stored || Date.parse(sent) === Date.parse(stored);
}

/** The sessions an administrator sees and ends (the auth module's session repo). */
export interface UserSessions {
  liveSessions(userId: number, now: string): Promise<AdminUserDetail['sessions']>;
  revokeUserSessions(userId: number, now: string, exceptSessionId: undefined, db: Db): Promise<unknown>;
}

/** What a lock-out needs of the API keys area (its repo): every live key of these users revoked. */
export interface UserApiKeys {
  revokeAllOf(userIds: readonly number[], now: string, db: Db): Promise<number>;
}

/** Users as administrators run them: list, detail, create, edit, status, password, retire, bulk. */
export class AdminUsersService implements UserTargets {
  constructor(private readonly d: AdminUsersDeps) {}

  async list(actor: Actor, q: AdminUserListQuery) {
    const { rows, total } = await this.d.adminUsers.page(q, listScope(actor, 'user.read'), q.page, q.limit);
    const extra = await this.d.adminUsers.extraPermissionsOf(rows.map((r) => r.id));
    const now = this.d.clock.now();
    return {
      items: rows.map((r) => toAdminUser(actor, r, extra.get(r.id) ?? [], now)),
      pagination: paginate(q.page, q.limit, total),
    };
  }

  /** Every user the filter matches, a batch at a time, for the streamed CSV export. */
  async *iterate(actor: Actor, f: UserFilter): AsyncGenerator<AdminUserFields> {
    const scope = listScope(actor, 'user.export');
    const now = this.d.clock.now();
    for (let after = 0; ;) {
      const rows = await this.d.adminUsers.batchAfter(f, scope, after, EXPORT_BATCH);
      if (rows.length === 0) return;
      const extra = await this.d.adminUsers.extraPermissionsOf(rows.map((r) => r.id));
      for (const r of rows) yield adminUserFields(r, extra.get(r.id) ?? [], now);
      after = rows[rows.length - 1]!.id;
    }
  }

  async get(actor: Actor, id: number): Promise<AdminUserDetail> {
    const user = authorizeFound(actor, 'user.read', await this.d.users.findWithGroupById(id), userTarget);
    const now = this.d.clock.now();
    const [extra, sessions] = await Promise.all([
      this.d.users.extraPermissions(id),
      this.d.sessions.liveSessions(id, iso(now)),
    ]);
    return { ...toAdminUser(actor, user, extra, now), sessions };
  }

  /** A user as the answer of a change, read inside its transaction, with what `actor` may now do to it. */
  async present(actor: Actor, id: number, db: Db): Promise<AdminUser> {
    const user = await this.d.users.findWithGroupById(id, db);
    if (!user) throw new AppError('NOT_FOUND');
    return toAdminUser(actor, user, await this.d.users.extraPermissions(id, db), this.d.clock.now());
  }

  /** Locks a user the actor may `action`; outside their sight it does not exist. */
  async lockTarget(actor: Actor, action: Parameters<typeof authorize>[1], id: number, trx: Db, now: string) {
    // No right to the action at all: the same answer whether or not the user exists.
    requireScope(actor, action);
    return authorizeFound(actor, action, await this.d.adminUsers.lock(id, trx, now), userTarget);
  }

  async create(ctx: AdminContext, body: CreateAdminUserBody): Promise<AdminUser> {
    const { actor } = ctx;
    authorize(actor, 'user.create');
    const settings = await this.d.settings.getSettings();
    // A group administrator's users join their group as plain users.
    const everywhere = scopeOf(actor.permissions, 'user.create') === 'all';
    const role = body.role ?? 'user';
    if (role !== 'user' && !can(actor, 'user.role')) throw new AppError('FORBIDDEN');
    if (body.credits_quota !== undefined && !can(actor, 'credits.adjust')) throw new AppError('FORBIDDEN');
    if (!everywhere && body.group_id !== undefined && body.group_id !== actor.group_id) throw new AppError('FORBIDDEN');
    const groupId = everywhere ? (body.group_id ?? settings.user.default_group_id) : actor.group_id;
    if (groupId === null || !isRowId(groupId) || !(await this.d.groups.findById(groupId)))
      throw new InputError(['validation.group.notFound']);
    await assertIdentityFree(this.d.users, { email: body.email, username: body.username, phone: body.phone ?? null });
    const passwordHash = await hashPassword(body.password);
    const created = await this.mapConflicts(() =>
      this.d.tx.run(ctx, async (trx, now) => {
        const id = await insertAccount(trx, this.d, {
          email: body.email,
          username: body.username,
          phone: body.phone ?? null,
          passwordHash,
          role,
          groupId,
          credits: body.credits_quota ?? settings.user.default_credits,
          siteMayGrant: mayGrantOpeningCredits(actor),
          tokens: body.token_quota ?? settings.user.default_tokens,
          remark: body.remark ?? null,
          operatorId: actor.id,
          grantDescription: 'server.ledger.adminCreateGrant',
          now,
        });
        const result = await this.present(actor, id, trx);
        const { abilities: _viewer, ...after } = result;
        return { result, audit: { action: 'user.create', targetType: 'user', targetId: id, after } };
      }),
    );
    this.d.onPoolChanged?.(groupId);
    return created;
  }

  async update(ctx: AdminContext, id: number, body: UpdateAdminUserBody): Promise<AdminUser> {
    const { actor } = ctx;
    return this.mapConflicts(() =>
      this.d.tx.run(ctx, async (trx, now) => {
        const user = await this.lockTarget(actor, 'user.update', id, trx, now);
        // Only after the scope check, so nobody learns of identities outside their sight.
        await assertIdentityFree(
          this.d.users,
          { email: body.email, username: body.username, phone: body.phone },
          id,
          trx,
        );
        const extraBefore = await this.d.users.extraPermissions(id, trx);
        if (body.role !== undefined && body.role !== user.role) {
          authorize(actor, 'user.role', userTarget(user));
        }
        // Pinning decides who sets the group (administrators, not the identity provider): a move right.
        const pinChange = body.group_pinned !== undefined && body.group_pinned !== (user.group_pinned === 1);
        if (pinChange) authorize(actor, 'user.move', userTarget(user));
        if (body.group_id !== undefined && body.group_id !== user.group_id) {
          authorize(actor, 'user.move', userTarget(user));
          if (!isRowId(body.group_id) || !(await reserveGroupPlace(this.d.groups, body.group_id, trx, now))) {
            throw new InputError(['validation.group.notFound']);
          }
        }
        // The quota moves only through the credits call (a reason, a ledger row); an unchanged
        // value, as a client echoing the whole user sends it, is no change.
        if (body.credits_quota !== undefined && body.credits_quota !== user.credits_quota) {
          throw new InputError(['validation.user.creditsQuotaViaCredits']);
        }
        // The expiry likewise moves only with a credit operation (extend_days); the same instant
        // in another spelling is still no change.
        if (body.credits_expire_at !== undefined && !sameInstant(body.credits_expire_at, user.credits_expire_at)) {
          throw new InputError(['validation.user.creditsExpiryViaCredits']);
        }
        const statusChange = body.status !== undefined && body.status !== user.status;
        if (statusChange) {
          authorize(actor, 'user.status', userTarget(user));
        }
        const permissionsChange =
          body.extra_permissions !== undefined &&
          [...new Set(body.extra_permissions)].sort().join() !== [...extraBefore].sort().join();
        if (permissionsChange) authorize(actor, 'user.permissions', userTarget(user));
        await this.d.users.update(
          id,
          {
            ...(body.username !== undefined ? { username: body.username } : {}),
            ...(body.email !== undefined ? { email: body.email } : {}),
            ...(body.phone !== undefined ? { phone: body.phone } : {}),
            ...(body.role !== undefined ? { role: body.role } : {}),
            ...(body.group_id !== undefined ? { group_id: body.group_id } : {}),
            ...(body.group_pinned !== undefined ? { group_pinned: body.group_pinned ? 1 : 0 } : {}),
            ...(body.token_quota !== undefined ? { token_quota: body.token_quota } : {}),
            ...(body.remark !== undefined ? { remark: body.remark } : {}),
            ...(statusChange ? { status: body.status } : {}),
          },
          trx,
        );
        // As PUT …/status: a disabled account is locked out at once.
        if (statusChange && body.status === 'inactive') await this.lockOut([id], now, trx);
        if (permissionsChange) {
          await this.d.users.replaceExtraPermissions(id, [...new Set(body.extra_permissions)], now, trx);
        }
        const after = await this.d.adminUsers.lock(id, trx, now);
        const extraAfter = await this.d.users.extraPermissions(id, trx);
        const changes = diff(auditSnapshot(user, extraBefore), after ? auditSnapshot(after, extraAfter) : {});
        return {
          result: await this.present(actor, id, trx),
          audit: this.change('user.update', user, changes.before, changes.after),
        };
      }),
    );
  }

  async setStatus(ctx: AdminContext, id: number, status: UserRow['status']): Promise<AdminUser> {
    refuseSelfAction(ctx.actor, 'user.status', id);
    return this.d.tx.run(ctx, async (trx, now) => {
      const user = await this.lockTarget(ctx.actor, 'user.status', id, trx, now);
      await this.d.users.update(id, { status }, trx);
      // A disabled account is locked out at once, not when its token expires.
      if (status === 'inactive') await this.lockOut([id], now, trx);
      const action = status === 'active' ? 'user.enable' : 'user.disable';
      return {
        result: await this.present(ctx.actor, id, trx),
        audit: this.change(action, user, { status: user.status }, { status }),
      };
    });
  }

  async resetPassword(ctx: AdminContext, id: number, newPassword: string): Promise<{ id: number }> {
    const passwordHash = await hashPassword(newPassword);
    return this.d.tx.run(ctx, async (trx, now) => {
      const user = await this.lockTarget(ctx.actor, 'user.password', id, trx, now);
      await this.d.users.update(id, { password_hash: passwordHash }, trx);
      await this.d.sessions.revokeUserSessions(id, now, undefined, trx);
      return { result: { id }, audit: this.change('user.password.reset', user, null, { password: 'changed' }) };
    });
  }

  /** Retires the account: sessions end, it leaves every list, its identity is free again, its ledger stays. */
  async retire(ctx: AdminContext, id: number): Promise<{ id: number }> {
    refuseSelfAction(ctx.actor, 'user.delete', id);
    return this.d.tx.run(ctx, async (trx, now) => {
      const user = await this.lockTarget(ctx.actor, 'user.delete', id, trx, now);
      await this.d.users.update(id, { deleted_at: now, status: 'inactive' }, trx);
      await this.lockOut([id], now, trx);
      return { result: { id }, audit: this.change('user.delete', user, auditSnapshot(user), null) };
    });
  }

  /** One action on many users, all or nothing; a user the actor may not touch fails the whole call. */
  async bulk(ctx: AdminContext, body: BulkUsersBody): Promise<BulkUsersResult> {
    const { actor } = ctx;
    const ids = [...new Set(body.ids)];
    const action = body.action === 'move' ? 'user.move' : 'user.status';
    if (body.action === 'disable') refuseSelfAction(actor, action, ids);
    requireScope(actor, action);
    return this.d.tx.run(ctx, async (trx, now) => {
      // Users first, then the group (in applyBulk): the lock order of every admin write.
      const users = await this.d.adminUsers.lockLive(ids, trx, now);
      if (users.length !== ids.length) throw new AppError('NOT_FOUND');
      for (const u of users) {
        // The actor's own account is active while they act, so enabling it changes nothing: it
        // needs the right to edit the account, not the status right nobody holds on themselves.
        const selfEnable = body.action === 'enable' && u.id === actor.id;
        authorize(actor, selfEnable ? 'user.update' : action, userTarget(u));
      }
      const changed = users.filter((u) =>
        body.action === 'move'
          ? u.group_id !== body.group_id
          : u.status !== (body.action === 'enable' ? 'active' : 'inactive'),
      );
      const changedIds = changed.map((u) => u.id);
      if (changedIds.length > 0) await this.applyBulk(body, changedIds, trx, now);
      const audit = changed.map((u) =>
        body.action === 'move'
          ? this.change('user.move', u, { group_id: u.group_id }, { group_id: body.group_id ?? null })
          : this.change(
              `user.${body.action}`,
              u,
              { status: u.status },
              { status: body.action === 'enable' ? 'active' : 'inactive' },
            ),
      );
      return { result: { updated: changedIds.length, ids: changedIds }, audit };
    });
  }

  private async applyBulk(body: BulkUsersBody, ids: number[], trx: Db, now: string): Promise<void> {
    if (body.action === 'move') {
      const groupId = body.group_id as number;
      const group = isRowId(groupId) ? await this.d.groups.lock(groupId, trx, now) : undefined;
      if (!group) throw new InputError(['validation.group.notFound']);
      if (
        group.user_limit !== null &&
        (await this.d.groups.countMembers(groupId, trx)) + ids.length > group.user_limit
      ) {
        throw new AppError('GROUP_FULL');
      }
      await this.d.adminUsers.updateMany(ids, { group_id: groupId, updated_at: now }, trx);
      return;
    }
    const status = body.action === 'enable' ? 'active' : 'inactive';
    await this.d.adminUsers.updateMany(ids, { status, updated_at: now }, trx);
    if (status === 'inactive') await this.lockOut(ids, now, trx);
  }

  /**
   * A disabled or retired account is locked out at once, in the transaction of the change:
   * its sessions end and its API keys are revoked (the commit's change event empties every
   * instance's caches of both).
   */
  private async lockOut(ids: readonly number[], now: string, trx: Db): Promise<void> {
    for (const id of ids) await this.d.sessions.revokeUserSessions(id, now, undefined, trx);
    await this.d.apiKeys.revokeAllOf(ids, now, trx);
  }

  private change(
    action: string,
    user: UserRow,
    before: Record<string, unknown> | null,
    after: Record<string, unknown> | null,
  ) {
    return { action, targetType: 'user', targetId: user.id, before, after };
  }

  /** A concurrent create or edit that took the same email, username or phone ends as a 409. */
  private async mapConflicts<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      throw conflictFromDbError(err) ?? err;
    }
  }
}
