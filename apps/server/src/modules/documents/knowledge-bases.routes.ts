import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerCall } from '../../lib/http/call-route.js';
import { actorOf } from '../../policies/actor.js';
import type { KnowledgeBasesService } from './knowledge-bases.service.js';

/** Knowledge bases and their documents: wiring only. */
export const knowledgeBasesRoutes =
  (s: KnowledgeBasesService): FastifyPluginAsyncZod =>
  async (app) => {
    registerCall(app, 'listKnowledgeBases', async ({ req }) => s.list(await actorOf(req)));
    registerCall(app, 'createKnowledgeBase', async ({ req, body }) => s.create(await actorOf(req), body));
    registerCall(app, 'getKnowledgeBase', async ({ req, id }) => s.get(await actorOf(req), id));
    registerCall(app, 'updateKnowledgeBase', async ({ req, id, body }) => s.update(await actorOf(req), id, body));
    registerCall(app, 'deleteKnowledgeBase', async ({ req, id }) => s.remove(await actorOf(req), id));
    registerCall(app, 'listKnowledgeDocuments', async ({ req, id }) => s.documents(await actorOf(req), id));
    registerCall(app, 'addKnowledgeDocument', async ({ req, id, body }) =>
      s.addDocument(await actorOf(req), id, body.file_id),
    );
    registerCall(app, 'removeKnowledgeDocument', async ({ req, params }) =>
      s.removeDocument(await actorOf(req), params.id, params.file_id),
    );
  };
