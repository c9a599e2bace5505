import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Clock } from '../../lib/runtime/clock.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UsersRepo } from '../users/users.repo.js';
import { MemoryPresence, type Presence, RedisPresence } from './presence.js';
import { StatsCalendar } from './stats-calendar.js';
import { StatsService } from './stats.service.js';
import { UsageStatsRepo } from './usage-stats.repo.js';

export interface StatsDeps {
  db: Kysely<Database>;
  users: UsersRepo;
  settings: SettingsService;
  clock: Clock;
  /** Presence is shared through Redis when there is one, else kept in this process. */
  redis: Redis | undefined;
  redisPrefix: string;
  log: FastifyBaseLogger;
}

export function createStatsServices(d: StatsDeps) {
  const presence: Presence = d.redis
    ? new RedisPresence(d.redis, `${d.redisPrefix}presence`, d.clock, (err) =>
        d.log.warn({ err }, 'presence not recorded'),
      )
    : new MemoryPresence(d.clock);
  const usage = new UsageStatsRepo(d.db);
  const calendar = new StatsCalendar(d.settings, d.clock);
  return {
    presence,
    usage,
    calendar,
    service: new StatsService(usage, d.users, presence, calendar, d.settings, d.clock),
  };
}
export type StatsServices = ReturnType<typeof createStatsServices>;
