import type { Kysely } from 'kysely';
import type { AiModelRow, Database } from '../../db/types.js';
import type { ChangeBus } from '../../lib/data/change-bus.js';
import type { KvStore } from '../../lib/data/kv-store.js';
import type { Clock } from '../../lib/runtime/clock.js';
import type { AdminTransactions } from '../audit/admin-tx.js';
import type { UsersRepo } from '../users/users.repo.js';
import { AdminApiKeysService } from './admin-api-keys.service.js';
import { ApiKeyAuth } from './api-key-auth.js';
import { ApiKeySpendRepo } from './api-key-spend.repo.js';
import { ApiKeysRepo } from './api-keys.repo.js';
import { ApiKeysService } from './api-keys.service.js';

/** Wires personal API keys: the owners' service, the administrators' one, and the request authentication. */
export function createApiKeyServices(d: {
  db: Kysely<Database>;
  users: UsersRepo;
  kv: KvStore;
  changes: ChangeBus;
  clock: Clock;
  tx: AdminTransactions;
  /** The statistics time zone, where a key's limit periods start. */
  timeZone: () => Promise<string>;
  /** The models a group's members may call through /v1 (the models area's list). */
  usableModels: (groupId: number | null) => Promise<Pick<AiModelRow, 'name' | 'display_name' | 'kind'>[]>;
}) {
  const repo = new ApiKeysRepo(d.db);
  const spend = new ApiKeySpendRepo(d.db, d.timeZone);
  const auth = new ApiKeyAuth({ repo, users: d.users, kv: d.kv, clock: d.clock, changes: d.changes });
  return {
    repo,
    spend,
    auth,
    keys: new ApiKeysService({ db: d.db, repo, spend, auth, clock: d.clock, usableModels: d.usableModels }),
    admin: new AdminApiKeysService({ repo, spend, auth, tx: d.tx, clock: d.clock }),
  };
}
export type ApiKeyServices = ReturnType<typeof createApiKeyServices>;
