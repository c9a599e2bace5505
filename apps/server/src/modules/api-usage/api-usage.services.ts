import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/types.js';
import type { Clock } from '../../lib/runtime/clock.js';
import type { CreditsRepo } from '../credits/credits.repo.js';
import type { ModelsService } from '../models/models.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UsersRepo } from '../users/users.repo.js';
import { ApiAccounting } from './api-accounting.js';
import { ApiTurnSweep } from './api-sweep.js';
import { ApiTurnsLive } from './api-turns-live.js';
import { ApiTurnsRepo } from './api-turns.repo.js';
import type { V1Gate } from './v1-gate.js';
import { V1Models } from './v1-models.js';
import { V1Turns } from './v1-turn.js';
import { V1Service } from './v1.service.js';

/** Wires the OpenAI-compatible `/v1` API and its billing; the composition root calls this once. */
export function createApiUsageServices(d: {
  db: Kysely<Database>;
  users: UsersRepo;
  credits: CreditsRepo;
  settings: SettingsService;
  models: ModelsService;
  clock: Clock;
  config: Pick<AppConfig, 'upstreamTimeoutMs' | 'upstreamFirstByteTimeoutMs' | 'answerLeaseMs'>;
  log: FastifyBaseLogger;
  gate: V1Gate;
}) {
  const turnsRepo = new ApiTurnsRepo(d.db);
  const accounting = new ApiAccounting(d.db, d.credits, d.users, turnsRepo);
  const live = new ApiTurnsLive(turnsRepo, d.clock, d.log, d.config.answerLeaseMs);
  const limits = { firstByteMs: d.config.upstreamFirstByteTimeoutMs, totalMs: d.config.upstreamTimeoutMs };
  const turns = new V1Turns(accounting, live, d.settings, d.clock, limits, d.log);
  const service = new V1Service(new V1Models(d.models, (key, name) => d.gate.allowsModel(key, name)), turns, limits);
  return {
    gate: d.gate,
    service,
    accounting,
    turnsRepo,
    // Settles API turns left unfinished by an instance that went away.
    sweep: new ApiTurnSweep(accounting, d.clock, d.log, d.config.answerLeaseMs),
    /** Stops the turns in progress (their partial output charged as stopped) and the lease timer. */
    close: async () => {
      await turns.close();
      await live.close();
    },
  };
}
export type ApiUsageServices = ReturnType<typeof createApiUsageServices>;
