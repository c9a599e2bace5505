import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Clock } from '../../lib/runtime/clock.js';
import { AdminTransactions, type AdminRecords } from '../audit/admin-tx.js';
import { PromptsRepo } from './prompts.repo.js';
import { promptsRoutes } from './prompts.routes.js';
import { PromptsService } from './prompts.service.js';

/** Prompt templates, their changes to shared ones written with their audit rows. */
export function createPromptServices(d: { db: Kysely<Database>; admin: AdminRecords; clock: Clock }) {
  const service = new PromptsService({
    repo: new PromptsRepo(d.db),
    tx: new AdminTransactions(d.db, d.admin.audit, d.admin.idempotency, d.clock),
  });
  return { service, routes: promptsRoutes(service) };
}
