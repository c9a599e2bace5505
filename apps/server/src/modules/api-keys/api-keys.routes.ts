import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentAuth } from '../../lib/auth/auth-guard.js';
import { registerCall } from '../../lib/http/call-route.js';
import { actorOf, adminContextOf } from '../../policies/actor.js';
import type { ApiKeyServices } from './api-keys.services.js';

/** /keys (one's own) and /admin/api-keys: wiring only. */
export const apiKeysRoutes =
  (s: ApiKeyServices): FastifyPluginAsyncZod =>
  async (app) => {
    registerCall(app, 'listApiKeys', async ({ req }) => s.keys.list(currentAuth(req).user.id));
    registerCall(app, 'listApiKeyModels', async ({ req }) => s.keys.models(currentAuth(req).user.group_id));
    registerCall(app, 'createApiKey', async ({ req, body }) => s.keys.create(currentAuth(req).user.id, body));
    registerCall(app, 'revokeApiKey', async ({ req, id }) => s.keys.revoke(currentAuth(req).user.id, id));
    registerCall(app, 'listAdminApiKeys', async ({ req, query }) => s.admin.list(await actorOf(req), query));
    registerCall(app, 'revokeAdminApiKey', async ({ req, id }) => s.admin.revoke(await adminContextOf(req), id));
  };
