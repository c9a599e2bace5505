import type { Insertable } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { AlertDeliveriesTable, Db } from '../../db/types.js';
import { type Clock, iso } from '../../lib/runtime/clock.js';
import { parseAlerts } from './cap-alerts.js';
import { capAlertsRepo } from './cap-alerts.repo.js';
import { type PoolAlertFacts, renderPoolThresholdMail } from './pool-alert-text.js';
import type { PoolThresholdAlertsRepo } from './pool-threshold-alerts.repo.js';

/**
 * A group's alert thresholds applied to its credit pool: when the share of the pool given
 * out to members reaches a threshold, the group's administrators hear of it (bell, mail,
 * webhook, as the threshold's channels say), once. A pool has no window, so the mark of a
 * fired threshold stays until the pool is back under it (enlarged or credits reclaimed);
 * the next fall fires again. Runs after a pool change commits; marks and deliveries are
 * written in one transaction, so a threshold fires once however many instances check.
 */
export class PoolThresholdAlerts {
  constructor(private readonly d: { repo: PoolThresholdAlertsRepo; clock: Clock; log: FastifyBaseLogger }) {}

  /** Called after a pool change has committed; never throws. */
  async check(groupId: number): Promise<void> {
    try {
      await this.d.repo.inTransaction((trx) => this.evaluate(trx, groupId));
    } catch (err) {
      this.d.log.warn({ err, groupId }, 'pool threshold alert not sent');
    }
  }

  private async evaluate(trx: Db, groupId: number): Promise<void> {
    const { repo } = this.d;
    const group = await repo.find(trx, groupId);
    if (!group) return;
    const alerts = group.alerts ? parseAlerts(group.alerts) : [];
    const { credits_pool: pool, credits_pool_used: used } = group;
    // An empty pool (none set) reaches nothing.
    const reached = alerts.filter((a) => pool > 0 && used * 100 >= a.percent * pool);
    await repo.rearm(
      trx,
      groupId,
      reached.map((a) => a.percent),
    );
    const now = iso(this.d.clock.now());
    for (const alert of reached) {
      if (!(await repo.claim(trx, groupId, alert.percent, now))) continue;
      const facts: PoolAlertFacts = {
        group_id: groupId,
        group_name: group.name,
        percent: alert.percent,
        pool,
        used,
        remaining: pool - used,
      };
      await deliver(trx, facts, new Set(alert.channels), group.webhook_url, now);
    }
  }
}

async function deliver(
  trx: Db,
  facts: PoolAlertFacts,
  channels: Set<string>,
  webhookUrl: string | null,
  now: string,
): Promise<void> {
  const audience = await capAlertsRepo.audience(trx, { type: 'group', id: facts.group_id });
  if (channels.has('in_app')) {
    await capAlertsRepo.notify(
      trx,
      audience.people.map((p) => ({
        user_id: p.id,
        kind: 'pool_alert',
        data: JSON.stringify(facts),
        created_at: now,
        read_at: null,
      })),
    );
  }
  const queued: Insertable<AlertDeliveriesTable>[] = [];
  const queue = (channel: 'email' | 'webhook', target: string, payload: string) =>
    queued.push({
      channel,
      target,
      subject_type: 'group',
      subject_id: facts.group_id,
      payload,
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      lease_until: null,
      created_at: now,
      delivered_at: null,
    });
  if (channels.has('email')) {
    const mail = JSON.stringify(renderPoolThresholdMail(facts));
    for (const p of audience.people) queue('email', p.email, mail);
  }
  if (channels.has('webhook') && webhookUrl) {
    queue('webhook', webhookUrl, JSON.stringify({ event: 'credit_pool.alert', fired_at: now, ...facts }));
  }
  await capAlertsRepo.enqueue(trx, queued);
}
