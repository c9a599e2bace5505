import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Clock } from '../../lib/runtime/clock.js';
import { AdminTransactions, type AdminRecords } from '../audit/admin-tx.js';
import type { SettingsService } from '../settings/settings.service.js';
import { StatsCalendar } from '../stats/stats-calendar.js';
import { CapsRepo } from './caps.repo.js';
import { CapsService } from './caps.service.js';
import { NotificationsRepo } from './notifications.repo.js';
import { NotificationsService } from './notifications.service.js';

export interface CapsServices {
  caps: CapsService;
  notifications: NotificationsService;
}

/** Wires usage caps onto the shared audit log, and the bell. */
export function createCapsServices(d: {
  db: Kysely<Database>;
  admin: AdminRecords;
  settings: SettingsService;
  clock: Clock;
  secret: string;
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
  };
}
