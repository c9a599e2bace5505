import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerCall } from '../../lib/http/call-route.js';
import { actorOf, adminContextOf } from '../../policies/actor.js';
import type { PromptsService } from './prompts.service.js';

/** Prompt templates and their versions: wiring only. */
export const promptsRoutes =
  (s: PromptsService): FastifyPluginAsyncZod =>
  async (app) => {
    registerCall(app, 'listPrompts', async ({ req, query }) => s.list(await actorOf(req), query));
    registerCall(app, 'createPrompt', async ({ req, body }) => s.create(await adminContextOf(req), body));
    registerCall(app, 'updatePrompt', async ({ req, id, body }) => s.update(await adminContextOf(req), id, body));
    registerCall(app, 'deletePrompt', async ({ req, id }) => s.remove(await adminContextOf(req), id));
    registerCall(app, 'listPromptVersions', async ({ req, id }) => s.versions(await actorOf(req), id));
  };
