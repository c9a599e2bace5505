import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Guards } from '../../lib/auth/auth-guard.js';
import type { RateLimits } from '../../plugins/rate-limits.js';
import type { DocumentServices } from './documents.services.js';
import { filesRoutes } from './files.routes.js';

/** Every route of documents (files; knowledge bases join here), registered under /api. */
export const documentsRoutes =
  (documents: DocumentServices, guards: Guards, limits: RateLimits): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(filesRoutes(documents.files, guards, limits));
  };
