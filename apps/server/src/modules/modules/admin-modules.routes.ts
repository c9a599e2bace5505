import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerCall } from '../../lib/http/call-route.js';
import { actorOf, adminContextOf } from '../../policies/actor.js';
import type { AdminModulesService } from './admin-modules.service.js';

/** /admin/modules…: wiring only. */
export const adminModulesRoutes =
  (s: AdminModulesService): FastifyPluginAsyncZod =>
  async (app) => {
    registerCall(app, 'listModules', async ({ req }) => s.list(await actorOf(req)));
    registerCall(app, 'createModule', async ({ req, body }) => s.create(await adminContextOf(req), body));
    registerCall(app, 'updateModule', async ({ req, id, body }) => s.update(await adminContextOf(req), id, body));
    registerCall(app, 'deleteModule', async ({ req, id }) => s.remove(await adminContextOf(req), id));
    registerCall(app, 'toggleModule', async ({ req, id }) => s.toggle(await adminContextOf(req), id));
    registerCall(app, 'checkModuleHealth', async ({ req, id }) => s.checkHealth(await adminContextOf(req), id));
  };
