import { ADMIN_FILE_PATHS, StatsOverviewQuerySchema } from '@aiplatform/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentAuth } from '../../lib/auth/auth-guard.js';
import { accessHooks } from '../../lib/auth/call-access.js';
import { registerCall } from '../../lib/http/call-route.js';
import { csvDownloadHeaders } from '../../lib/http/csv-stream.js';
import { actorOf } from '../../policies/actor.js';
import { usageCsv } from './stats-export.js';
import type { StatsService } from './stats.service.js';
import type { UsageStatsRepo } from './usage-stats.repo.js';

/** The dashboard's statistics and the administrators' usage overview: wiring only. */
export const statsRoutes =
  (s: StatsService, usage: UsageStatsRepo): FastifyPluginAsyncZod =>
  async (app) => {
    registerCall(app, 'myCreditsStats', ({ req }) => s.userCredits(currentAuth(req).user));
    // The site's numbers, the group administrator's group's, or the user's own.
    registerCall(app, 'realtimeStats', async ({ req }) => s.realtime(await actorOf(req)));
    // Marks the user online; no database write.
    registerCall(app, 'heartbeat', ({ req }) => {
      s.heartbeat(currentAuth(req).user.id);
      return { online: true };
    });
    registerCall(app, 'myUsage', ({ req, query }) => s.mine(currentAuth(req).user.id, query.days));
    registerCall(app, 'statsOverview', async ({ req, query }) => s.adminOverview(await actorOf(req), query));
    app.get(
      ADMIN_FILE_PATHS.statsExport,
      {
        preValidation: accessHooks(app.guards, 'stats.read'),
        schema: {
          tags: ['admin'],
          summary: 'Usage per day, user and model as CSV (charge-back)',
          querystring: StatsOverviewQuerySchema,
        },
      },
      async (req, reply) => {
        const range = await s.scopedRange(await actorOf(req), req.query);
        return reply.headers(csvDownloadHeaders('usage')).send(usageCsv(usage, range));
      },
    );
  };
