import { MessageSearchQuerySchema, MessageSearchResultSchema } from '@aiplatform/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Guards, currentAuth } from '../../lib/auth-guard.js';
import { sendOk } from '../../lib/envelope.js';
import { successEnvelope } from '../../lib/openapi.js';
import type { MessageSearchService } from './message-search.service.js';
import { accessHooks } from '../../lib/call-access.js';

/** GET /chat/search: the caller's messages whose text matches `q`. Wiring only. */
export const messageSearchRoutes =
  (s: MessageSearchService, guards: Guards): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/chat/search',
      {
        preValidation: accessHooks(guards, 'chat.use'),
        schema: {
          tags: ['chat'],
          querystring: MessageSearchQuerySchema,
          response: { 200: successEnvelope(MessageSearchResultSchema) },
        },
      },
      async (req, reply) => sendOk(req, reply, await s.search(currentAuth(req).user.id, req.query.q, req.query.limit)),
    );
  };
