import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Clock } from '../../lib/runtime/clock.js';
import { AdminTransactions, type AdminRecords } from '../audit/admin-tx.js';
import { AdminSettingsService } from './admin-settings.service.js';
import { HomepageService } from './homepage.service.js';
import { SettingsRepo } from './settings.repo.js';
import type { SettingsService } from './settings.service.js';
import { SiteImagesService } from './site-images.service.js';

/** Wires the settings administration (settings, homepage, site images) onto the shared audit log. */
export function createSettingsAdminServices(d: {
  db: Kysely<Database>;
  admin: AdminRecords;
  settings: SettingsService;
  clock: Clock;
  dataDir: string;
}) {
  const repo = new SettingsRepo(d.db);
  const tx = new AdminTransactions(d.db, d.admin.audit, d.admin.idempotency, d.clock);
  return {
    settings: new AdminSettingsService({ settings: d.settings, repo, tx }),
    homepage: new HomepageService({ settings: d.settings, repo, tx }),
    images: new SiteImagesService(path.join(d.dataDir, 'site-images'), tx),
  };
}
export type SettingsAdminServices = ReturnType<typeof createSettingsAdminServices>;
