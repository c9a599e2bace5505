import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerCall } from '../../lib/admin-route.js';
import type { Guards } from '../../lib/auth-guard.js';
import { actorOf, adminContextOf } from '../../policies/actor.js';
import type { AdminModelsService } from './admin-models.service.js';

/** /admin/models…: wiring only. */
export const adminModelsRoutes =
  (s: AdminModelsService, guards: Guards): FastifyPluginAsyncZod =>
  async (app) => {
    const pre = [guards.authenticate];
    registerCall(app, 'listModels', pre, async ({ req }) => s.list(await actorOf(req)));
    registerCall(app, 'createModel', pre, async ({ req, body }) => s.create(await adminContextOf(req), body));
    registerCall(app, 'updateModel', pre, async ({ req, id, body }) => s.update(await adminContextOf(req), id, body));
    registerCall(app, 'deleteModel', pre, async ({ req, id }) => s.remove(await adminContextOf(req), id));
    registerCall(app, 'testModel', pre, async ({ req, id }) => s.test(await adminContextOf(req), id, req.lang));
    registerCall(app, 'sortModels', pre, async ({ req, body }) => s.sort(await adminContextOf(req), body));
    registerCall(app, 'getModelGroups', pre, async ({ req, id }) => s.groups(await actorOf(req), id));
    registerCall(app, 'setModelGroups', pre, async ({ req, id, body }) =>
      s.setGroups(await adminContextOf(req), id, body.group_ids),
    );
    registerCall(app, 'discoverModels', pre, async ({ req, body }) => s.discover(await actorOf(req), body, req.lang));
  };
