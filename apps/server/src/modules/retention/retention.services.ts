import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Clock } from '../../lib/runtime/clock.js';
import type { AdminTransactions } from '../audit/admin-tx.js';
import type { ChatServices } from '../chat/chat.services.js';
import { MessageFilesRepo } from '../chat/message-files.repo.js';
import { LegalHoldsRepo } from '../legal-holds/legal-holds.repo.js';
import { LegalHoldsService } from '../legal-holds/legal-holds.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { JobLocksRepo } from './job-locks.repo.js';
import { RetentionRepo } from './retention.repo.js';
import { RetentionService } from './retention.service.js';

/** Wires governance: legal holds (changes audited) and retention (deleting through the chat's file release). */
export function createGovernanceServices(d: {
  db: Kysely<Database>;
  chat: Pick<ChatServices, 'images'>;
  settings: SettingsService;
  tx: AdminTransactions;
  clock: Clock;
}) {
  return {
    legalHolds: new LegalHoldsService({ repo: new LegalHoldsRepo(d.db), tx: d.tx }),
    retention: new RetentionService({
      db: d.db,
      repo: new RetentionRepo(d.db),
      locks: new JobLocksRepo(d.db),
      messageFiles: new MessageFilesRepo(d.db),
      removeBlobs: (released) => d.chat.images.removeBlobs(released),
      settings: d.settings,
      clock: d.clock,
    }),
  };
}
export type GovernanceServices = ReturnType<typeof createGovernanceServices>;
