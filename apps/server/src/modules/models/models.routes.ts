import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentAuth } from '../../lib/auth/auth-guard.js';
import { registerCall } from '../../lib/http/call-route.js';
import type { ModelsService } from './models.service.js';

/** The model picker's list: active models the user's group may use. */
export const modelsRoutes =
  (models: ModelsService): FastifyPluginAsyncZod =>
  async (app) => {
    registerCall(app, 'chatModels', ({ req }) => models.listForUser(currentAuth(req).user.group_id));
  };
