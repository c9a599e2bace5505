import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentAuth } from '../../lib/auth/auth-guard.js';
import { registerCall } from '../../lib/http/call-route.js';
import { actorOf } from '../../policies/actor.js';
import type { RetentionService } from './retention.service.js';

/** Retention: a run now (dry or real) and the latest runs for super administrators; each user's own policy. Wiring only. */
export const retentionRoutes =
  (s: RetentionService): FastifyPluginAsyncZod =>
  async (app) => {
    registerCall(app, 'runRetention', async ({ req, body }) => s.runNow(await actorOf(req), body.dry_run));
    registerCall(app, 'listRetentionRuns', async ({ req }) => s.latestRuns(await actorOf(req)));
    registerCall(app, 'chatRetention', ({ req }) => s.policyFor(currentAuth(req).user.id));
  };
