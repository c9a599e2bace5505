import type { CreateGroupBody, Group, GroupSiteConfigBody, UpdateGroupBody } from '@aiplatform/contracts';
import type { Clock } from '../../lib/runtime/clock.js';
import { paginate } from '../../lib/http/envelope.js';
import { AppError, InputError } from '../../lib/http/errors.js';
import { isUniqueViolation } from '../../lib/data/db-errors.js';
import type { Actor, AdminContext } from '../../policies/actor.js';
import { authorize, listScope } from '../../policies/policy.js';
import type { AdminTransactions } from '../audit/admin-tx.js';
import { diff } from '../audit/redact.js';
import type { ClosedGrant, GroupGrantsRepo } from './group-grants.repo.js';
import type { GroupPermissionsRepo } from './group-permissions.repo.js';
import { groupSnapshot, toGroup } from './group.presenter.js';
import type { GroupPatch, GroupsRepo } from './groups.repo.js';
import { applyPoolChange } from './pool-writer.js';
import type { Db } from '../../db/types.js';

/** The default group new accounts join; it always exists. */
export const DEFAULT_GROUP_ID = 1;

const groupTarget = (id: number) => ({ kind: 'group', id }) as const;

/** Groups as administrators run them: CRUD, member limit, pool size, site identity. */
export class GroupsService {
  constructor(
    private readonly d: {
      groups: GroupsRepo;
      grants: GroupGrantsRepo;
      permissions: GroupPermissionsRepo;
      tx: AdminTransactions;
      clock: Clock;
      onPoolChanged: (groupId: number) => void;
    },
  ) {}

  async list(actor: Actor, page: number, limit: number) {
    const scope = listScope(actor, 'group.read');
    const { rows, total } = await this.d.groups.list({ ...(scope.all ? {} : { onlyId: scope.groupId }), page, limit });
    const permissions = await this.d.permissions.of(rows.map((g) => g.id));
    return {
      items: rows.map((g) => toGroup(actor, g, permissions.get(g.id) ?? [])),
      pagination: paginate(page, limit, total),
    };
  }

  async get(actor: Actor, id: number): Promise<Group> {
    authorize(actor, 'group.read', groupTarget(id));
    return this.present(actor, id);
  }

  /** A group with what `actor` may do to it; in a change, read inside its transaction. */
  async present(actor: Actor, id: number, db?: Db): Promise<Group> {
    const g = await this.d.groups.findWithStats(id, db);
    if (!g) throw new AppError('NOT_FOUND');
    return toGroup(actor, g, (await this.d.permissions.of([id], db)).get(id) ?? []);
  }

  async create(ctx: AdminContext, body: CreateGroupBody): Promise<Group> {
    authorize(ctx.actor, 'group.manage');
    const permissions = [...new Set(body.permissions ?? [])];
    if (permissions.length > 0) authorize(ctx.actor, 'group.permissions');
    return this.nameConflicts(() =>
      this.d.tx.run(ctx, async (trx, now) => {
        if (await this.d.groups.findByName(body.name, trx)) throw new AppError('CONFLICT_GROUP_NAME');
        const id = await this.d.groups.insert(
          {
            name: body.name,
            description: body.description ?? '',
            color: body.color ?? '#1677ff',
            sort_order: body.sort_order ?? 0,
            status: body.status ?? 'active',
            user_limit: body.user_limit ?? null,
            retention_days: body.retention_days ?? null,
            site_name: null,
            site_logo: null,
            site_config_enabled: 0,
            created_at: now,
            updated_at: now,
          },
          trx,
        );
        await this.d.permissions.replace(id, permissions, now, trx);
        const result = await this.present(ctx.actor, id, trx);
        const { abilities: _viewer, ...after } = result;
        return { result, audit: { action: 'group.create', targetType: 'group', targetId: id, after } };
      }),
    );
  }

  async update(ctx: AdminContext, id: number, body: UpdateGroupBody): Promise<Group> {
    return this.nameConflicts(() =>
      this.change(ctx, id, 'group.update', async (trx, group, now) => {
        // The pool moves only through its own call, which keeps the pool's ledger and alerts;
        // the stored total echoed back (a client sending the whole group) is no change.
        const { credits_pool: pool, site_name, site_logo, site_config_enabled, permissions, ...fields } = body;
        if (pool !== undefined && pool !== group.credits_pool) {
          throw new InputError(['validation.group.creditsPoolViaPoolCall']);
        }
        if (fields.name !== undefined) {
          const same = await this.d.groups.findByName(fields.name, trx);
          if (same && same.id !== id) throw new AppError('CONFLICT_GROUP_NAME');
        }
        if (fields.user_limit !== undefined) await this.assertLimitFits(id, fields.user_limit, trx);
        if (permissions !== undefined) await this.replacePermissions(ctx, id, permissions, now, trx);
        // The site identity follows the site-config call's rules: blank means none.
        return {
          ...fields,
          ...(site_name !== undefined ? { site_name: site_name || null } : {}),
          ...(site_logo !== undefined ? { site_logo: site_logo || null } : {}),
          ...(site_config_enabled !== undefined ? { site_config_enabled: site_config_enabled ? 1 : 0 } : {}),
        };
      }),
    );
  }

  async setUserLimit(ctx: AdminContext, id: number, userLimit: number | null): Promise<Group> {
    return this.change(ctx, id, 'group.user_limit', async (trx) => {
      await this.assertLimitFits(id, userLimit, trx);
      return { user_limit: userLimit };
    });
  }

  async setSiteConfig(ctx: AdminContext, id: number, body: GroupSiteConfigBody): Promise<Group> {
    return this.change(ctx, id, 'group.site_config', async () => ({
      site_name: body.site_name || null,
      site_logo: body.site_logo || null,
      site_config_enabled: body.enabled ? 1 : 0,
    }));
  }

  /** Sets the pool's total; it can never drop below what has already been handed out. */
  async setPool(ctx: AdminContext, id: number, total: number): Promise<Group> {
    const result = await this.change(ctx, id, 'group.pool.set', async (trx, group, now) => {
      // The group row is locked, so the change from its total is exactly the one asked for.
      const set = await applyPoolChange(trx, {
        groupId: id,
        type: 'pool_set',
        amount: total - group.credits_pool,
        operatorId: ctx.actor.id,
        now,
      });
      if (!set.ok) throw new AppError('POOL_INSUFFICIENT', {}, { used: set.state?.used ?? group.credits_pool_used });
      return {};
    });
    this.d.onPoolChanged(id);
    return result;
  }

  async remove(ctx: AdminContext, id: number): Promise<{ id: number }> {
    authorize(ctx.actor, 'group.manage', groupTarget(id));
    return this.d.tx.run(ctx, async (trx, now) => {
      const group = await this.d.groups.lock(id, trx, now);
      if (!group) throw new AppError('NOT_FOUND');
      // New accounts join the default group, so it must always exist.
      if (id === DEFAULT_GROUP_ID) throw new AppError('GROUP_IS_DEFAULT');
      if ((await this.d.groups.countMembers(id, trx)) > 0) throw new AppError('GROUP_HAS_USERS');
      // Models and modules only this group could use would be open to everyone once its rows cascade away.
      const closed = await this.d.grants.closeSoleGrants(id, now, trx);
      await this.d.groups.delete(id, trx);
      const closedEntry = (targetType: string) => (c: ClosedGrant) => ({
        action: `${targetType}.update`,
        targetType,
        targetId: c.id,
        before: { is_active: c.wasActive, group_ids: [id] },
        after: { is_active: false, group_ids: [] },
      });
      return {
        result: { id },
        audit: [
          { action: 'group.delete', targetType: 'group', targetId: id, before: groupSnapshot(group) },
          ...closed.models.map(closedEntry('model')),
          ...closed.modules.map(closedEntry('module')),
        ],
      };
    });
  }

  /** One locked, audited change of a group's own fields. */
  private change(
    ctx: AdminContext,
    id: number,
    action: string,
    patchOf: (trx: Db, group: NonNullable<Awaited<ReturnType<GroupsRepo['lock']>>>, now: string) => Promise<GroupPatch>,
  ): Promise<Group> {
    authorize(ctx.actor, 'group.manage', groupTarget(id));
    return this.d.tx.run(ctx, async (trx, now) => {
      const group = await this.d.groups.lock(id, trx, now);
      if (!group) throw new AppError('NOT_FOUND');
      const permissionsBefore = (await this.d.permissions.of([id], trx)).get(id) ?? [];
      const patch = await patchOf(trx, group, now);
      await this.d.groups.update(id, patch, trx);
      const after = await this.d.groups.lock(id, trx, now);
      const permissionsAfter = (await this.d.permissions.of([id], trx)).get(id) ?? [];
      const changes = diff(
        groupSnapshot(group, permissionsBefore),
        after ? groupSnapshot(after, permissionsAfter) : {},
      );
      return {
        result: await this.present(ctx.actor, id, trx),
        audit: { action, targetType: 'group', targetId: id, before: changes.before, after: changes.after },
      };
    });
  }

  /** A changed list needs the right to grant permissions; the same list echoed back is no change. */
  private async replacePermissions(
    ctx: AdminContext,
    id: number,
    wanted: readonly string[],
    now: string,
    trx: Db,
  ): Promise<void> {
    const next = [...new Set(wanted)].sort();
    const current = (await this.d.permissions.of([id], trx)).get(id) ?? [];
    if (next.join() === current.join()) return;
    authorize(ctx.actor, 'group.permissions', groupTarget(id));
    await this.d.permissions.replace(id, next, now, trx);
  }

  private async assertLimitFits(id: number, limit: number | null, trx: Db): Promise<void> {
    // A limit below today's membership would make the group "over full"; refuse it plainly.
    if (limit !== null && (await this.d.groups.countMembers(id, trx)) > limit) throw new AppError('GROUP_FULL');
  }

  private async nameConflicts<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('CONFLICT_GROUP_NAME');
      throw err;
    }
  }
}
