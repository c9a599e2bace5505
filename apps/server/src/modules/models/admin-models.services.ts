import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Clock } from '../../lib/runtime/clock.js';
import { SecretBox } from '../../lib/auth/secret-box.js';
import { AdminTransactions, type AdminRecords } from '../audit/admin-tx.js';
import { AdminModelsRepo } from './admin-models.repo.js';
import { AdminModelsService } from './admin-models.service.js';
import { CatalogGrantsRepo } from '../catalog/catalog-grants.repo.js';
import { MODEL_CATALOG } from '../catalog/catalog-kinds.js';
import type { SettingsService } from '../settings/settings.service.js';

/** Wires the model administration onto the shared audit log and idempotency store. */
export function createAdminModelsService(d: {
  db: Kysely<Database>;
  admin: AdminRecords;
  clock: Clock;
  /** The application secret: keys are sealed with the same box the chat side opens them with. */
  secret: string;
  settings: SettingsService;
}): AdminModelsService {
  return new AdminModelsService({
    repo: new AdminModelsRepo(d.db),
    grants: new CatalogGrantsRepo(d.db, MODEL_CATALOG),
    box: new SecretBox(d.secret),
    tx: new AdminTransactions(d.db, d.admin.audit, d.admin.idempotency, d.clock),
    defaultCreditsPerChat: async () => (await d.settings.getSettings()).credits.default_credits_per_chat,
  });
}
