import { PublicSystemConfigSchema } from '@aiplatform/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendOk } from '../../lib/envelope.js';
import { successEnvelope } from '../../lib/openapi.js';
import type { SettingsService } from './settings.service.js';

export const publicRoutes =
  (settings: SettingsService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/public/system-config',
      {
        schema: {
          tags: ['public'],
          summary: 'Public site configuration (no sign-in needed)',
          response: { 200: successEnvelope(PublicSystemConfigSchema) },
        },
      },
      async (req, reply) => sendOk(req, reply, await settings.getPublicConfig()),
    );
  };
