import { type CapAlert, CapAlertSchema } from '@aiplatform/contracts';
import type { Insertable } from 'kysely';
import { z } from 'zod';
import type { AlertDeliveriesTable, Db } from '../../db/types.js';
import { renderCapAlertMail } from './cap-alert-mail.js';
import { capAlertsRepo } from './cap-alerts.repo.js';
import type { CapSubject, CounterKey } from './caps.repo.js';

/** A counter after a charge: how much of its limit is used. */
export interface CapCrossing {
  key: CounterKey;
  limit: number;
  used: number;
  resetsAt: string;
}

/** What an alert says, in the bell's `data`, the webhook's body and the mail. */
export interface CapAlertFacts {
  subject_type: CapSubject['type'];
  subject_id: number;
  subject_name: string;
  period: CounterKey['period'];
  model_name: string | null;
  percent: number;
  limit: number;
  used: number;
  window_start: string;
  resets_at: string;
}

const StoredAlerts = z.array(CapAlertSchema);

/** The thresholds stored for a subject; a row that no longer parses alerts nobody. */
export function parseAlerts(json: string): CapAlert[] {
  const parsed = StoredAlerts.safeParse(JSON.parse(json));
  return parsed.success ? parsed.data : [];
}

const sameSubject = (a: CapSubject, b: CapSubject) => a.type === b.type && a.id === b.id;

/**
 * Fires the alerts whose threshold a charge reached (all of them when `reached`: a turn
 * was refused), inside the caller's transaction: the (cap, window, threshold) row makes
 * each fire once however many turns race; the bell's rows are written here, mails and
 * webhook calls queued for the delivery loop, which sends them after the commit.
 */
export async function fireCapAlerts(trx: Db, crossings: readonly CapCrossing[], now: string, reached: boolean) {
  if (crossings.length === 0) return;
  const subjects = crossings
    .map((c) => c.key.subject)
    .filter((s, i, all) => all.findIndex((x) => sameSubject(x, s)) === i);
  const settings = await capAlertsRepo.subjects(trx, subjects);
  for (const c of crossings) {
    const config = settings.find((s) => sameSubject(s.subject, c.key.subject));
    if (!config) continue;
    for (const alert of parseAlerts(config.alerts)) {
      if (!reached && c.used * 100 < alert.percent * c.limit) continue;
      if (!(await capAlertsRepo.claim(trx, c.key, alert.percent, now))) continue;
      await deliver(trx, c, alert, config.webhook_url, now);
    }
  }
}

async function deliver(trx: Db, c: CapCrossing, alert: CapAlert, webhookUrl: string | null, now: string) {
  const audience = await capAlertsRepo.audience(trx, c.key.subject);
  const facts: CapAlertFacts = {
    subject_type: c.key.subject.type,
    subject_id: c.key.subject.id,
    subject_name: audience.name,
    period: c.key.period,
    model_name: c.key.modelName || null,
    percent: alert.percent,
    limit: c.limit,
    used: c.used,
    window_start: c.key.windowStart,
    resets_at: c.resetsAt,
  };
  const channels = new Set(alert.channels);
  if (channels.has('in_app')) {
    await capAlertsRepo.notify(
      trx,
      audience.people.map((p) => ({
        user_id: p.id,
        kind: 'cap_alert',
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
      subject_type: c.key.subject.type,
      subject_id: c.key.subject.id,
      payload,
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      lease_until: null,
      created_at: now,
      delivered_at: null,
    });
  if (channels.has('email')) {
    const mail = JSON.stringify(renderCapAlertMail(facts));
    for (const p of audience.people) queue('email', p.email, mail);
  }
  if (channels.has('webhook') && webhookUrl) {
    queue('webhook', webhookUrl, JSON.stringify({ event: 'usage_cap.alert', fired_at: now, ...facts }));
  }
  await capAlertsRepo.enqueue(trx, queued);
}
