import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Clock } from '../../lib/runtime/clock.js';
import { AdminTransactions, type AdminRecords } from '../audit/admin-tx.js';
import { AnnouncementsRepo } from './announcements.repo.js';
import { AnnouncementsService } from './announcements.service.js';

/** Wires the announcements onto the shared audit log. */
export function createAnnouncementsService(d: {
  db: Kysely<Database>;
  admin: AdminRecords;
  clock: Clock;
}): AnnouncementsService {
  return new AnnouncementsService({
    repo: new AnnouncementsRepo(d.db),
    tx: new AdminTransactions(d.db, d.admin.audit, d.admin.idempotency, d.clock),
    clock: d.clock,
  });
}
