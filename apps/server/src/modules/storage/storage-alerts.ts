import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/runtime/clock.js';
import type { Mailer } from '../../lib/runtime/mailer.js';
import type { SettingsService } from '../settings/settings.service.js';
import { MB, totalOf } from './storage-budget.js';
import { renderStorageAlertMail } from './storage-alert-mail.js';
import type { StorageUsageRepo } from './storage-usage.repo.js';

/**
 * Emails the super administrators when stored uploads reach `storage.alert_percent` of the
 * budget (0 = never, and never without a budget). Once per rise: a marker row remembers
 * the warning, and storage back below the share re-arms it. The claim is one insert that
 * only one caller can make, so two instances never both send.
 */
export class StorageAlerts {
  constructor(
    private readonly d: {
      repo: StorageUsageRepo;
      settings: SettingsService;
      mailer: Mailer;
      clock: Clock;
      log: FastifyBaseLogger;
    },
  ) {}

  /** Called after an upload was stored or refused for want of room; never throws. */
  async check(): Promise<void> {
    try {
      await this.evaluate();
    } catch (err) {
      this.d.log.warn({ err }, 'storage alert not sent');
    }
  }

  private async evaluate(): Promise<void> {
    const { repo } = this.d;
    const { storage } = await this.d.settings.getSettings();
    const budgetBytes = storage.budget_mb * MB;
    if (budgetBytes === 0 || storage.alert_percent === 0) return;
    const usedBytes = totalOf(await repo.stored());
    if (usedBytes * 100 < budgetBytes * storage.alert_percent) {
      if (await repo.alertSent()) await repo.rearmAlert();
      return;
    }
    if (!(await repo.claimAlert(this.d.clock.now().toISOString()))) return;
    const mail = renderStorageAlertMail({ usedBytes, budgetBytes, percent: storage.alert_percent });
    try {
      for (const to of await repo.superAdminEmails()) await this.d.mailer.send({ to, ...mail });
    } catch (err) {
      // Re-arm so that the next upload tries again.
      await repo.rearmAlert();
      throw err;
    }
  }
}
