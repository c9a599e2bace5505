import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerCall } from '../../lib/admin-route.js';
import type { Guards } from '../../lib/auth-guard.js';
import { actorOf, adminContextOf } from '../../policies/actor.js';
import type { AdminModulesService } from './admin-modules.service.js';

/** /admin/modules…: wiring only. */
export const adminModulesRoutes =
  (s: AdminModulesService, guards: Guards): FastifyPluginAsyncZod =>
  async (app) => {
    const pre = [guards.authenticate];
    registerCall(app, 'listModules', pre, async ({ req }) => s.list(await actorOf(req)));
    registerCall(app, 'createModule', pre, async ({ req, body }) => s.create(await adminContextOf(req), body));
    registerCall(app, 'updateModule', pre, async ({ req, id, body }) => s.update(await adminContextOf(req), id, body));
    registerCall(app, 'deleteModule', pre, async ({ req, id }) => s.remove(await adminContextOf(req), id));
    registerCall(app, 'toggleModule', pre, async ({ req, id }) => s.toggle(await adminContextOf(req), id));
    registerCall(app, 'checkModuleHealth', pre, async ({ req, id }) => s.checkHealth(await adminContextOf(req), id));
  };
