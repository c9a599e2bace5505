import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Clock } from '../../lib/runtime/clock.js';
import type { KvStore } from '../../lib/data/kv-store.js';
import { AdminTransactions, type AdminRecords } from '../audit/admin-tx.js';
import { AdminModulesService } from './admin-modules.service.js';
import { type HealthMonitorOptions, ModuleHealthMonitor } from './module-health-monitor.js';
import { deriveModuleSigningKey } from './module-signing-key.js';
import { ModuleSsoService } from './module-sso.service.js';
import { ModulesRepo } from './modules.repo.js';
import { CatalogGrantsRepo } from '../catalog/catalog-grants.repo.js';
import { MODULE_CATALOG } from '../catalog/catalog-kinds.js';

/** Wires modules: the admin side, the single sign-on hand-off and the background health checks. */
export async function createModuleServices(d: {
  db: Kysely<Database>;
  admin: AdminRecords;
  kv: KvStore;
  clock: Clock;
  secret: string;
  log: FastifyBaseLogger;
  health?: HealthMonitorOptions;
}) {
  const repo = new ModulesRepo(d.db);
  const tx = new AdminTransactions(d.db, d.admin.audit, d.admin.idempotency, d.clock);
  return {
    repo,
    admin: new AdminModulesService({ repo, grants: new CatalogGrantsRepo(d.db, MODULE_CATALOG), tx }),
    sso: new ModuleSsoService({ repo, clock: d.clock, key: await deriveModuleSigningKey(d.secret) }),
    health: new ModuleHealthMonitor({ repo, kv: d.kv, clock: d.clock, log: d.log }, d.health),
  };
}
export type ModuleServices = Awaited<ReturnType<typeof createModuleServices>>;
