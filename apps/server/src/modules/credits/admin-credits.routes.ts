import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idempotencyKeyOf, registerCall } from '../../lib/http/call-route.js';
import { actorOf, adminContextOf } from '../../policies/actor.js';
import type { AdminCreditsService } from './admin-credits.service.js';

/** /admin/users/:id/credits…: adding, deducting or setting a balance, and the user's ledger. */
export const adminCreditsRoutes =
  (credits: AdminCreditsService): FastifyPluginAsyncZod =>
  async (app) => {
    registerCall(app, 'adjustCredits', async ({ req, id, body }) =>
      credits.adjust(await adminContextOf(req), id, body, idempotencyKeyOf(req), req.lang),
    );
    registerCall(app, 'creditHistory', async ({ req, id, query }) =>
      credits.history(await actorOf(req), id, query, req.lang),
    );
  };
