import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentAuth } from '../../lib/auth/auth-guard.js';
import { registerCall } from '../../lib/http/call-route.js';
import type { MessageSearchService } from './message-search.service.js';

/** GET /chat/search: the caller's messages whose text matches `q`. Wiring only. */
export const messageSearchRoutes =
  (s: MessageSearchService): FastifyPluginAsyncZod =>
  async (app) => {
    registerCall(app, 'searchMessages', ({ req, query }) => s.search(currentAuth(req).user.id, query.q, query.limit));
  };
