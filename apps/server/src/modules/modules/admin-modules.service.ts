import type { AdminModule, CreateModuleBody, UpdateModuleBody } from '@aiplatform/contracts';
import type { Updateable } from 'kysely';
import type { ModuleRow, ModulesTable, Db } from '../../db/types.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, InputError } from '../../lib/errors.js';
import type { Actor, AdminContext } from '../../policies/actor.js';
import { authorize, listScope } from '../../policies/policy.js';
import type { AdminTransactions } from '../admin/admin-tx.js';
import { diff } from '../audit/redact.js';
import { probe, probeUrlOf } from './module-probe.js';
import { moduleSnapshot, toAdminModule } from './module.presenter.js';
import type { ModulesRepo } from './modules.repo.js';

const TARGET = 'module';

/** Fields of a body that map one to one onto columns. */
const PLAIN_FIELDS = [
  'name',
  'display_name',
  'description',
  'menu_icon',
  'module_url',
  'open_mode',
  'sort_order',
  'auth_mode',
  'health_check_url',
] as const;

/** Modules as administrators run them: CRUD, on/off, group visibility, on-demand health check. */
export class AdminModulesService {
  constructor(private readonly d: { repo: ModulesRepo; tx: AdminTransactions; probeTimeoutMs?: number }) {}

  /**
   * Everyone who manages modules or settings sees every module; a group administrator
   * reads (never changes) the modules their own group sees.
   */
  async list(actor: Actor): Promise<AdminModule[]> {
    const scope = listScope(actor, 'module.read');
    const rows = await this.d.repo.list(scope.all ? {} : { visibleToGroup: scope.groupId });
    const groups = await this.d.repo.groupIdsOf(rows.map((r) => r.id));
    return rows.map((r) => toAdminModule(r, groups.get(r.id) ?? []));
  }

  async create(ctx: AdminContext, body: CreateModuleBody): Promise<AdminModule> {
    authorize(ctx.actor, 'module.manage');
    return this.nameConflicts(() =>
      this.d.tx.run(ctx, async (trx, now) => {
        const groupIds = await this.checkGroups(body.group_ids ?? [], trx);
        const id = await this.d.repo.insert(
          {
            name: body.name,
            display_name: body.display_name,
            description: body.description ?? '',
            type: 'frontend',
            // Empty: the menu draws the module's letter icon.
            menu_icon: body.menu_icon ?? '',
            open_mode: body.open_mode ?? 'iframe',
            module_url: body.module_url,
            is_active: body.is_active === false ? 0 : 1,
            sort_order: body.sort_order ?? 0,
            config: '{}',
            auth_mode: body.auth_mode ?? 'none',
            health_check_url: body.health_check_url ?? null,
            health_status: 'unknown',
            health_checked_at: null,
            health_latency_ms: null,
            created_at: now,
            updated_at: now,
          },
          trx,
        );
        await this.d.repo.replaceGroups(id, groupIds, trx);
        const result = await this.present(id, trx);
        return {
          result,
          audit: { action: 'module.create', targetType: TARGET, targetId: id, after: moduleSnapshot(result) },
        };
      }),
    );
  }

  async update(ctx: AdminContext, id: number, body: UpdateModuleBody): Promise<AdminModule> {
    return this.nameConflicts(() =>
      this.change(ctx, id, 'module.update', async (trx, before, now) => {
        const patch: Updateable<ModulesTable> = {};
        for (const field of PLAIN_FIELDS) {
          if (body[field] !== undefined) Object.assign(patch, { [field]: body[field] });
        }
        if (body.is_active !== undefined) patch.is_active = body.is_active ? 1 : 0;
        // The stored health describes the old address; it is unknown until the new one is checked.
        const probed = { ...before, ...patch };
        if (probeUrlOf(probed) !== probeUrlOf(before)) {
          Object.assign(patch, { health_status: 'unknown', health_latency_ms: null, health_checked_at: null });
        }
        if (body.group_ids !== undefined) {
          await this.d.repo.replaceGroups(id, await this.checkGroups(body.group_ids, trx), trx);
        }
        if (Object.keys(patch).length > 0 || body.group_ids !== undefined) patch.updated_at = now;
        return patch;
      }),
    );
  }

  async toggle(ctx: AdminContext, id: number): Promise<AdminModule> {
    return this.change(ctx, id, 'module.toggle', async (_trx, before, now) => ({
      is_active: before.is_active === 1 ? 0 : 1,
      updated_at: now,
    }));
  }

  async remove(ctx: AdminContext, id: number): Promise<{ id: number }> {
    authorize(ctx.actor, 'module.manage');
    return this.d.tx.run(ctx, async (trx) => {
      const row = await this.d.repo.lock(id, trx);
      if (!row) throw new AppError('NOT_FOUND');
      const before = toAdminModule(row, await this.d.repo.groupIds(id, trx));
      await this.d.repo.delete(id, trx);
      return {
        result: { id },
        audit: { action: 'module.delete', targetType: TARGET, targetId: id, before: moduleSnapshot(before) },
      };
    });
  }

  /**
   * Probes the module now and stores the result. The probe runs before the transaction,
   * so a slow module never holds a database transaction open for seconds.
   */
  async checkHealth(ctx: AdminContext, id: number): Promise<AdminModule> {
    authorize(ctx.actor, 'module.manage');
    const row = await this.d.repo.findById(id);
    if (!row) throw new AppError('NOT_FOUND');
    const result = await probe(probeUrlOf(row), this.d.probeTimeoutMs ? { timeoutMs: this.d.probeTimeoutMs } : {});
    return this.d.tx.run(ctx, async (trx, now) => {
      const locked = await this.d.repo.lock(id, trx);
      if (!locked) throw new AppError('NOT_FOUND');
      await this.d.repo.recordHealth(
        id,
        { health_status: result.status, health_latency_ms: result.latencyMs, health_checked_at: now },
        trx,
      );
      const after = await this.present(id, trx);
      return {
        result: after,
        audit: {
          action: 'module.health',
          targetType: TARGET,
          targetId: id,
          before: healthOf(toAdminModule(locked, after.group_ids)),
          after: { ...healthOf(after), url: probeUrlOf(locked) },
        },
      };
    });
  }

  private async present(id: number, db: Db): Promise<AdminModule> {
    const row = await this.d.repo.findById(id, db);
    if (!row) throw new AppError('NOT_FOUND');
    return toAdminModule(row, await this.d.repo.groupIds(id, db));
  }

  /** One locked, audited change of a module. */
  private change(
    ctx: AdminContext,
    id: number,
    action: string,
    patchOf: (trx: Db, before: ModuleRow, now: string) => Promise<Updateable<ModulesTable>>,
  ): Promise<AdminModule> {
    authorize(ctx.actor, 'module.manage');
    return this.d.tx.run(ctx, async (trx, now) => {
      const row = await this.d.repo.lock(id, trx);
      if (!row) throw new AppError('NOT_FOUND');
      const before = toAdminModule(row, await this.d.repo.groupIds(id, trx));
      await this.d.repo.update(id, await patchOf(trx, row, now), trx);
      const after = await this.present(id, trx);
      const changes = diff(moduleSnapshot(before), moduleSnapshot(after));
      return {
        result: after,
        audit: { action, targetType: TARGET, targetId: id, before: changes.before, after: changes.after },
      };
    });
  }

  /** Distinct, existing group ids in ascending order; an unknown group is bad input. */
  private async checkGroups(ids: readonly number[], db: Db): Promise<number[]> {
    const wanted = [...new Set(ids)].sort((a, b) => a - b);
    const existing = await this.d.repo.existingGroupIds(wanted, db);
    if (wanted.some((id) => !existing.has(id))) throw new InputError(['validation.group.notFound']);
    return wanted;
  }

  /** The unique index on the name settles races that a lookup first could miss. */
  private async nameConflicts<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('CONFLICT_MODULE_NAME');
      throw err;
    }
  }
}

const healthOf = (m: AdminModule) => ({
  health_status: m.health_status,
  health_latency_ms: m.health_latency_ms,
  health_checked_at: m.health_checked_at,
});
