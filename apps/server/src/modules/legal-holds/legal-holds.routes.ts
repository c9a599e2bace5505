import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerCall } from '../../lib/http/call-route.js';
import { actorOf, adminContextOf } from '../../policies/actor.js';
import type { LegalHoldsService } from './legal-holds.service.js';

/** Legal holds: placing and releasing them on a user or a group, and their list. Wiring only. */
export const legalHoldsRoutes =
  (s: LegalHoldsService): FastifyPluginAsyncZod =>
  async (app) => {
    registerCall(app, 'setUserLegalHold', async ({ req, id, body }) =>
      s.set(await adminContextOf(req), 'user', id, body),
    );
    registerCall(app, 'setGroupLegalHold', async ({ req, id, body }) =>
      s.set(await adminContextOf(req), 'group', id, body),
    );
    registerCall(app, 'listLegalHolds', async ({ req }) => s.list(await actorOf(req)));
  };
