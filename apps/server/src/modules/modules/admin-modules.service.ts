import type { AdminModule, CreateModuleBody, UpdateModuleBody } from '@aiplatform/contracts';
import type { Updateable } from 'kysely';
import type { ModuleRow, ModulesTable } from '../../db/types.js';
import { isUniqueViolation } from '../../lib/data/db-errors.js';
import { AppError } from '../../lib/http/errors.js';
import type { Actor, AdminContext } from '../../policies/actor.js';
import { authorize, listScope } from '../../policies/policy.js';
import type { AdminTransactions } from '../audit/admin-tx.js';
import type { CatalogGrantsRepo } from '../catalog/catalog-grants.repo.js';
import { CatalogItems } from '../catalog/catalog-items.js';
import { probe, probeUrlOf } from './module-probe.js';
import { moduleSnapshot, toAdminModule } from './module.presenter.js';
import type { ModulesRepo } from './modules.repo.js';

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
  private readonly items: CatalogItems<ModuleRow, AdminModule, Updateable<ModulesTable>>;

  constructor(
    private readonly d: {
      repo: ModulesRepo;
      grants: CatalogGrantsRepo;
      tx: AdminTransactions;
      probeTimeoutMs?: number;
    },
  ) {
    this.items = new CatalogItems({
      grants: d.grants,
      store: d.repo,
      tx: d.tx,
      present: toAdminModule,
      snapshot: moduleSnapshot,
    });
  }

  /**
   * Everyone who manages modules or settings sees every module; a group administrator
   * reads (never changes) the modules their own group sees.
   */
  async list(actor: Actor): Promise<AdminModule[]> {
    const scope = listScope(actor, 'module.read');
    const rows = await this.d.repo.list(scope.all ? {} : { visibleToGroup: scope.groupId });
    const groups = await this.d.grants.groupIdsOf(rows.map((r) => r.id));
    return rows.map((r) => toAdminModule(r, groups.get(r.id) ?? []));
  }

  async create(ctx: AdminContext, body: CreateModuleBody): Promise<AdminModule> {
    return this.nameConflicts(() =>
      this.items.create(ctx, body.group_ids ?? [], (trx, now) =>
        this.d.repo.insert(
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
        ),
      ),
    );
  }

  async update(ctx: AdminContext, id: number, body: UpdateModuleBody): Promise<AdminModule> {
    return this.nameConflicts(() =>
      this.items.change(ctx, id, 'module.update', body.group_ids, (before) => {
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
        return patch;
      }),
    );
  }

  toggle(ctx: AdminContext, id: number): Promise<AdminModule> {
    return this.items.change(ctx, id, 'module.toggle', undefined, (before) => ({
      is_active: before.is_active === 1 ? 0 : 1,
    }));
  }

  remove(ctx: AdminContext, id: number): Promise<{ id: number }> {
    return this.items.remove(ctx, id);
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
      const after = await this.items.read(id, trx);
      return {
        result: after,
        audit: {
          action: 'module.health',
          targetType: 'module',
          targetId: id,
          before: healthOf(toAdminModule(locked, after.group_ids)),
          after: { ...healthOf(after), url: probeUrlOf(locked) },
        },
      };
    });
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
