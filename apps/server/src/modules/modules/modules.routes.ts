import { CreateModuleBodySchema, ModuleAuthUrlSchema, UserModuleSchema } from '@aiplatform/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Guards, currentAuth } from '../../lib/auth-guard.js';
import { sendOk } from '../../lib/envelope.js';
import { successEnvelope } from '../../lib/openapi.js';
import type { ModuleSsoService } from './module-sso.service.js';
import type { ModulesRepo } from './modules.repo.js';

/** The contract's rule for names: anything else (a NUL, a slash, a 10 KB string) never reaches the database. */
const NameParams = z.object({ name: CreateModuleBodySchema.shape.name });

/** What every signed-in user reaches: the menu's modules, the hand-off into one, and the public key set. */
export const modulesRoutes =
  (s: { repo: ModulesRepo; sso: ModuleSsoService }, guards: Guards): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/admin/modules/user-modules',
      {
        preValidation: guards.authenticate,
        schema: { tags: ['modules'], response: { 200: successEnvelope(z.array(UserModuleSchema)) } },
      },
      async (req, reply) => {
        const rows = await s.repo.findActiveFor(currentAuth(req).user.group_id);
        return sendOk(
          req,
          reply,
          rows.map((m) => ({ ...m, is_active: m.is_active === 1 })),
        );
      },
    );

    app.get(
      '/modules/:name/auth-url',
      {
        preValidation: guards.authenticate,
        schema: { tags: ['modules'], params: NameParams, response: { 200: successEnvelope(ModuleAuthUrlSchema) } },
      },
      async (req, reply) => {
        const answer = await s.sso.authUrl(currentAuth(req).user, req.params.name);
        // The URL may carry a token: no cache may keep it.
        void reply.header('cache-control', 'no-store');
        return sendOk(req, reply, answer);
      },
    );

    // Public and in the standard JWKS shape (no envelope): modules fetch it with stock JWT libraries.
    app.get('/modules/jwks.json', { schema: { tags: ['modules'] } }, async (_req, reply) => {
      void reply.header('cache-control', 'public, max-age=300');
      return reply.send(s.sso.jwks);
    });
  };
