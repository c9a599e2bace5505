import { UserModuleSchema } from '@aiplatform/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Guards } from '../../lib/auth-guard.js';
import { sendOk } from '../../lib/envelope.js';
import { successEnvelope } from '../../lib/openapi.js';
import type { ModulesRepo } from './modules.repo.js';

/** The menu's module list; every signed-in user sees the active modules. */
export const modulesRoutes =
  (repo: ModulesRepo, guards: Guards): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/admin/modules/user-modules',
      {
        preHandler: guards.authenticate,
        schema: { tags: ['modules'], response: { 200: successEnvelope(z.array(UserModuleSchema)) } },
      },
      async (req, reply) => {
        const rows = await repo.findActive();
        return sendOk(
          req,
          reply,
          rows.map((m) => ({ ...m, is_active: m.is_active === 1 })),
        );
      },
    );
  };
