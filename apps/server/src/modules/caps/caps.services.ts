import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Clock } from '../../lib/runtime/clock.js';
import type { Mailer } from '../../lib/runtime/mailer.js';
import { AdminTransactions, type AdminRecords } from '../audit/admin-tx.js';
import type { SettingsService } from '../settings/settings.service.js';
import { StatsCalendar } from '../stats/stats-calendar.js';
import { AlertDeliveriesRepo } from './alert-deliveries.repo.js';
import { ALERT_DELIVERY_DEFAULTS, AlertDeliveryLoop } from './alert-delivery.js';
import { CapsRepo } from './caps.repo.js';
import { CapsService } from './caps.service.js';
import { NotificationsRepo } from './notifications.repo.js';
import { NotificationsService } from './notifications.service.js';

export interface CapsServices {
  caps: CapsService;
  notifications: NotificationsService;
  /** Sends queued alert mails and webhooks; started by the app, stopped before the database closes. */
  deliveries: AlertDeliveryLoop;
}

/** Wires usage caps onto the shared audit log, and the bell. */
export function createCapsServices(d: {
  db: Kysely<Database>;
  admin: AdminRecords;
  settings: SettingsService;
  clock: Clock;
  secret: string;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** 0: the loop is not timed (tests run it by hand). */
  deliveryIntervalMs: number;
}): CapsServices {
  return {
    caps: new CapsService({
      repo: new CapsRepo(d.db),
      tx: new AdminTransactions(d.db, d.admin.audit, d.admin.idempotency, d.clock),
      clock: d.clock,
      calendar: new StatsCalendar(d.settings, d.clock),
      secret: d.secret,
    }),
    notifications: new NotificationsService(new NotificationsRepo(d.db), d.clock),
    deliveries: new AlertDeliveryLoop({
      repo: new AlertDeliveriesRepo(d.db),
      mailer: d.mailer,
      clock: d.clock,
      log: d.log,
      secret: d.secret,
      options: { ...ALERT_DELIVERY_DEFAULTS, intervalMs: d.deliveryIntervalMs },
    }),
  };
}
