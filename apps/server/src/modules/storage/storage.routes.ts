import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerCall } from '../../lib/admin-route.js';
import type { Guards } from '../../lib/auth-guard.js';
import { actorOf } from '../../policies/actor.js';
import { authorize } from '../../policies/policy.js';
import type { StorageBudget } from './storage-budget.js';

/** GET /admin/settings/storage-usage: for whoever may read the settings. */
export const storageRoutes =
  (budget: StorageBudget, guards: Guards): FastifyPluginAsyncZod =>
  async (app) => {
    registerCall(app, 'getStorageUsage', [guards.authenticate], async ({ req }) => {
      authorize(await actorOf(req), 'settings.read');
      return budget.usage();
    });
  };
