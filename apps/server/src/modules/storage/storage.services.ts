import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Clock } from '../../lib/runtime/clock.js';
import type { KvStore } from '../../lib/data/kv-store.js';
import type { Mailer } from '../../lib/runtime/mailer.js';
import type { TrustedNetworks } from '../../lib/auth/trusted-networks.js';
import type { SettingsService } from '../settings/settings.service.js';
import { AddressUploads } from './address-uploads.js';
import { StorageAlerts } from './storage-alerts.js';
import { StorageBudget } from './storage-budget.js';
import { StorageUsageRepo } from './storage-usage.repo.js';
import { UploadGate } from './upload-gate.js';

/** Wires the site's storage limits together; the composition root calls this once. */
export function createStorageServices(d: {
  db: Kysely<Database>;
  kv: KvStore;
  settings: SettingsService;
  mailer: Mailer;
  clock: Clock;
  log: FastifyBaseLogger;
  trusted: TrustedNetworks;
}) {
  const repo = new StorageUsageRepo(d.db);
  const budget = new StorageBudget({ repo, settings: d.settings });
  const alerts = new StorageAlerts({ repo, settings: d.settings, mailer: d.mailer, clock: d.clock, log: d.log });
  const addresses = new AddressUploads({ kv: d.kv, settings: d.settings, trusted: d.trusted });
  return { budget, gate: new UploadGate(budget, addresses, alerts) };
}
export type StorageServices = ReturnType<typeof createStorageServices>;
