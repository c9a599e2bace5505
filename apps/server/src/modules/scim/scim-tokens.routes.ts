import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerCall } from '../../lib/http/call-route.js';
import { adminContextOf } from '../../policies/actor.js';
import type { ScimTokensService } from './scim-tokens.service.js';

/** /admin/scim-tokens: wiring only. */
export const scimTokensRoutes =
  (tokens: ScimTokensService): FastifyPluginAsyncZod =>
  async (app) => {
    registerCall(app, 'listScimTokens', async ({ req }) => tokens.list(await adminContextOf(req)));
    registerCall(app, 'createScimToken', async ({ req, body }) => tokens.create(await adminContextOf(req), body.name));
    registerCall(app, 'revokeScimToken', async ({ req, id }) => tokens.revoke(await adminContextOf(req), id));
  };
