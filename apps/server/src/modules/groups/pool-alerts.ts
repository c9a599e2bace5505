import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/runtime/clock.js';
import type { Mailer } from '../../lib/runtime/mailer.js';
import type { SettingsService } from '../settings/settings.service.js';
import { renderPoolAlertMail } from './pool-alert-mail.js';
import type { PoolAlertsRepo } from './pool-alerts.repo.js';

/**
 * Emails a group's administrators when the undistributed part of its pool falls below
 * the configured share (`stats.pool_alert_percent`, 0 = never). Once per fall: the
 * group row remembers the warning, and a pool back above the share re-arms it. The
 * claim is one conditional update, so two instances never both send.
 */
export class PoolAlerts {
  constructor(
    private readonly d: {
      repo: PoolAlertsRepo;
      mailer: Mailer;
      settings: SettingsService;
      clock: Clock;
      log: FastifyBaseLogger;
    },
  ) {}

  /** Called after a pool change has committed; never throws. */
  async check(groupId: number): Promise<void> {
    try {
      await this.evaluate(groupId);
    } catch (err) {
      this.d.log.warn({ err, groupId }, 'pool alert not sent');
    }
  }

  private async evaluate(groupId: number): Promise<void> {
    const { repo } = this.d;
    const percent = (await this.d.settings.getSettings()).stats.pool_alert_percent;
    const group = await repo.find(groupId);
    if (!group) return;
    const remaining = group.credits_pool - group.credits_pool_used;
    const low = percent > 0 && group.credits_pool > 0 && remaining * 100 < group.credits_pool * percent;
    if (!low) {
      if (group.pool_alert_sent_at !== null) await repo.rearm(groupId);
      return;
    }
    if (!(await repo.claim(groupId, this.d.clock.now().toISOString()))) return;

    const admins = await repo.adminEmails(groupId);
    const mail = renderPoolAlertMail({ group: group.name, remaining, total: group.credits_pool, percent });
    try {
      for (const to of admins) await this.d.mailer.send({ to, ...mail });
    } catch (err) {
      // Re-arm so that the next change tries again.
      await repo.rearm(groupId);
      throw err;
    }
  }
}
