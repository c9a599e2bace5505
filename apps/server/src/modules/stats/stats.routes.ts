import {
  ADMIN_FILE_PATHS,
  MyStatsQuerySchema,
  RealtimeStatsSchema,
  StatsOverviewQuerySchema,
  UsageOverviewSchema,
  UserCreditsStatsSchema,
} from '@aiplatform/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { registerCall } from '../../lib/call-route.js';
import { type Guards, currentAuth } from '../../lib/auth-guard.js';
import { csvDownloadHeaders } from '../../lib/csv-stream.js';
import { sendOk } from '../../lib/envelope.js';
import { successEnvelope } from '../../lib/openapi.js';
import { actorOf } from '../../policies/actor.js';
import { usageCsv } from './stats-export.js';
import type { StatsService } from './stats.service.js';
import type { UsageStatsRepo } from './usage-stats.repo.js';
import { accessHooks } from '../../lib/call-access.js';

/** The dashboard's statistics and the administrators' usage overview: wiring only. */
export const statsRoutes =
  (s: StatsService, usage: UsageStatsRepo, guards: Guards): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['stats'];
    app.get(
      '/stats/user-credits',
      {
        preValidation: guards.authenticate,
        schema: {
          tags,
          summary: "The user's credits centre",
          response: { 200: successEnvelope(UserCreditsStatsSchema) },
        },
      },
      async (req, reply) => sendOk(req, reply, await s.userCredits(currentAuth(req).user)),
    );
    app.get(
      '/stats/realtime',
      {
        preValidation: guards.authenticate,
        schema: {
          tags,
          summary:
            "Today's activity and users online: the site's, the group administrator's group's, or the user's own",
          response: { 200: successEnvelope(RealtimeStatsSchema) },
        },
      },
      async (req, reply) => sendOk(req, reply, await s.realtime(await actorOf(req))),
    );
    app.post(
      '/stats/heartbeat',
      {
        preValidation: guards.authenticate,
        schema: {
          tags,
          summary: 'Marks the user online; no database write',
          response: { 200: successEnvelope(z.object({ online: z.boolean() })) },
        },
      },
      async (req, reply) => {
        s.heartbeat(currentAuth(req).user.id);
        return sendOk(req, reply, { online: true });
      },
    );
    app.get(
      '/stats/me',
      {
        preValidation: guards.authenticate,
        schema: {
          tags,
          summary: "The user's own usage per day and model",
          querystring: MyStatsQuerySchema,
          response: { 200: successEnvelope(UsageOverviewSchema) },
        },
      },
      async (req, reply) => sendOk(req, reply, await s.mine(currentAuth(req).user.id, req.query.days)),
    );
    registerCall(app, 'statsOverview', async ({ req, query }) => s.adminOverview(await actorOf(req), query));
    app.get(
      ADMIN_FILE_PATHS.statsExport,
      {
        preValidation: accessHooks(guards, 'stats.read'),
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
