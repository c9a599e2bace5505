import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerCall } from '../../lib/http/call-route.js';
import type { SettingsService } from './settings.service.js';

/** The public site configuration: read before anyone signs in, the same for every caller. */
export const publicRoutes =
  (settings: SettingsService): FastifyPluginAsyncZod =>
  async (app) => {
    registerCall(app, 'getPublicConfig', () => settings.getPublicConfig());
  };
