import type { StorageUsage } from '@aiplatform/contracts';
import { AppError } from '../../lib/http/errors.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { StorageUsageRepo, StoredBytes } from './storage-usage.repo.js';
import type { Db } from '../../db/types.js';

export const MB = 1024 * 1024;

export const totalOf = (s: StoredBytes) => s.images + s.avatars;

/**
 * The site-wide budget of stored uploads (`storage.budget_mb`, 0 = none). Uploads are
 * counted from the database, and the deciding count runs under the site-wide upload lock
 * in the transaction that records the upload, so simultaneous uploads on any number of
 * instances fill the budget exactly and never pass it.
 */
export class StorageBudget {
  constructor(private readonly d: { repo: StorageUsageRepo; settings: SettingsService }) {}

  /** The budget in bytes (0 = none), read before an upload's transaction and kept for it. */
  async budgetBytes(): Promise<number> {
    return (await this.d.settings.getSettings()).storage.budget_mb * MB;
  }

  /**
   * A first check before any byte is written, without the lock: a site already too full
   * for `growth` more bytes refuses at once. The deciding check is `admit`.
   */
  async precheck(growth: number, budget: number): Promise<void> {
    if (budget === 0 || growth <= 0) return;
    if (totalOf(await this.d.repo.stored()) + growth > budget) throw new AppError('SITE_STORAGE_FULL');
  }

  /**
   * In the transaction that records an upload growing storage by `growth` bytes (after the
   * owner's row lock): takes the site lock, counts, and refuses past `budget`. Everything
   * it reads goes through `trx`: SQLite has one connection, which the transaction holds,
   * so a read outside it (the settings, say) would wait for ever.
   */
  async admit(trx: Db, growth: number, budget: number): Promise<void> {
    if (budget === 0 || growth <= 0) return;
    await this.d.repo.lockSite(trx);
    if (totalOf(await this.d.repo.stored(trx)) + growth > budget) throw new AppError('SITE_STORAGE_FULL');
  }

  /** What the settings screen shows: bytes stored by kind against the budget. */
  async usage(): Promise<StorageUsage> {
    const [stored, { storage }] = await Promise.all([this.d.repo.stored(), this.d.settings.getSettings()]);
    return {
      used_bytes: totalOf(stored),
      images_bytes: stored.images,
      avatars_bytes: stored.avatars,
      budget_bytes: storage.budget_mb * MB,
      alert_percent: storage.alert_percent,
    };
  }
}
