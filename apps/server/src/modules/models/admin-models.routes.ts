import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerCall } from '../../lib/http/call-route.js';
import { actorOf, adminContextOf } from '../../policies/actor.js';
import type { AdminModelsService } from './admin-models.service.js';

/** /admin/models…: wiring only. */
export const adminModelsRoutes =
  (s: AdminModelsService): FastifyPluginAsyncZod =>
  async (app) => {
    registerCall(app, 'listModels', async ({ req }) => s.list(await actorOf(req)));
    registerCall(app, 'createModel', async ({ req, body }) => s.create(await adminContextOf(req), body));
    registerCall(app, 'updateModel', async ({ req, id, body }) => s.update(await adminContextOf(req), id, body));
    registerCall(app, 'deleteModel', async ({ req, id }) => s.remove(await adminContextOf(req), id));
    registerCall(app, 'testModel', async ({ req, id }) => s.test(await adminContextOf(req), id, req.lang));
    registerCall(app, 'sortModels', async ({ req, body }) => s.sort(await adminContextOf(req), body));
    registerCall(app, 'getModelGroups', async ({ req, id }) => s.groups(await actorOf(req), id));
    registerCall(app, 'setModelGroups', async ({ req, id, body }) =>
      s.setGroups(await adminContextOf(req), id, body.group_ids),
    );
    registerCall(app, 'discoverModels', async ({ req, body }) => s.discover(await actorOf(req), body, req.lang));
  };
