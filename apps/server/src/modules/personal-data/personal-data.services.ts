import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Clock } from '../../lib/runtime/clock.js';
import type { AdminTransactions } from '../audit/admin-tx.js';
import { isUserHeld } from '../legal-holds/legal-holds.repo.js';
import { AdminDataExports } from './admin-data-export.js';
import { DataExportRepo } from './data-export.repo.js';
import { DataExportService } from './data-export.service.js';
import { ErasureRepo } from './erasure.repo.js';
import { type ConversationRemover, ErasureService, type SessionRevoker } from './erasure.service.js';

/** Wires a person's data: the export (theirs, or a super administrator's copy) and erasure. */
export function createPersonalDataServices(d: {
  db: Kysely<Database>;
  dataDir: string;
  clock: Clock;
  tx: AdminTransactions;
  conversations: ConversationRemover;
  sessions: SessionRevoker;
}) {
  const uploadsDir = path.join(d.dataDir, 'uploads');
  const avatarsDir = path.join(d.dataDir, 'avatars');
  const repo = new DataExportRepo(d.db);
  return {
    clock: d.clock,
    exports: new DataExportService({ repo, uploadsDir, avatarsDir, clock: d.clock }),
    adminExports: new AdminDataExports(repo, d.tx),
    erasure: new ErasureService({
      repo: new ErasureRepo(d.db),
      tx: d.tx,
      holds: { isUserHeld: (userId, db) => isUserHeld(db ?? d.db, userId) },
      conversations: d.conversations,
      sessions: d.sessions,
      uploadsDir,
      avatarsDir,
    }),
  };
}

export type PersonalDataServices = ReturnType<typeof createPersonalDataServices>;
