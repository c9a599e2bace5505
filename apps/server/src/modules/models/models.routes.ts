import { ChatModelSchema } from '@aiplatform/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Guards, currentAuth } from '../../lib/auth-guard.js';
import { sendOk } from '../../lib/envelope.js';
import { successEnvelope } from '../../lib/openapi.js';
import type { ModelsService } from './models.service.js';
import { accessHooks } from '../../lib/call-access.js';

/** The model picker's list: active models the user's group may use. */
export const modelsRoutes =
  (models: ModelsService, guards: Guards): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/chat/models',
      {
        preValidation: accessHooks(guards, 'chat.use'),
        schema: { tags: ['chat'], response: { 200: successEnvelope(z.array(ChatModelSchema)) } },
      },
      async (req, reply) => sendOk(req, reply, await models.listForUser(currentAuth(req).user.group_id)),
    );
  };
