import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { databaseAnswers } from '../../db/ping.js';
import type { Database } from '../../db/types.js';
import type { DiskSpace } from '../../lib/data/disk-space.js';
import type { KvStore } from '../../lib/data/kv-store.js';

/** The database's answer to readiness; a connection that cannot be made fails sooner (2 s). */
const READY_DATABASE_TIMEOUT_MS = 2500;

/** The check's own answer, or false once `ms` have passed. */
function within(ms: number, check: Promise<boolean>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([check, late]).finally(() => clearTimeout(timer));
}

/**
 * Liveness answers while the process runs; readiness checks the database and Redis, and
 * reports the data directory's free space. Low space does not make the instance unready:
 * reads still work, and instances share the data volume, so taking one out of rotation
 * would make no room (the body's `disk` is for monitoring; docs/administration.md).
 */
export const healthRoutes =
  (db: Kysely<Database>, kv: KvStore, disk: () => Promise<DiskSpace>): FastifyPluginAsyncZod =>
  async (app) => {
    app.get('/health', { schema: { tags: ['health'] } }, async () => ({ status: 'ok' }));
    app.get('/ready', { schema: { tags: ['health'] } }, async (_req, reply) => {
      // All at once, each bounded (a database that accepts connections but never answers
      // included; Redis commands time out by themselves), so a load balancer hears
      // "not ready" quickly when either is away.
      const [database, cache, space] = await Promise.all([
        within(READY_DATABASE_TIMEOUT_MS, databaseAnswers(db)),
        kv.ping(),
        disk(),
      ]);
      const ready = database && cache;
      return reply.code(ready ? 200 : 503).send({
        status: ready ? 'ready' : 'not_ready',
        database,
        cache,
        disk: space.ok,
        disk_free_mb: space.freeMb,
      });
    });
  };
