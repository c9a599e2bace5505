import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerCall } from '../../lib/http/call-route.js';
import type { StorageBudget } from './storage-budget.js';

/** GET /admin/settings/storage-usage: for whoever may read the settings (the call's declared access). */
export const storageRoutes =
  (budget: StorageBudget): FastifyPluginAsyncZod =>
  async (app) => {
    registerCall(app, 'getStorageUsage', () => budget.usage());
  };
