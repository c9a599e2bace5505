import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { KvStore } from '../../lib/kv-store.js';

/** Liveness answers while the process runs; readiness checks the database and Redis. */
export const healthRoutes =
  (db: Kysely<Database>, kv: KvStore): FastifyPluginAsyncZod =>
  async (app) => {
    app.get('/health', { schema: { tags: ['health'] } }, async () => ({ status: 'ok' }));
    app.get('/ready', { schema: { tags: ['health'] } }, async (_req, reply) => {
      // Both at once, each bounded (database connect timeout, Redis command timeout), so a
      // load balancer hears "not ready" quickly when either is away.
      const [database, cache] = await Promise.all([
        sql`select 1`.execute(db).then(
          () => true,
          () => false,
        ),
        kv.ping(),
      ]);
      const ready = database && cache;
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', database, cache });
    });
  };
