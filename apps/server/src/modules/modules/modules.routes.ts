import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentAuth } from '../../lib/auth/auth-guard.js';
import { registerCall } from '../../lib/http/call-route.js';
import type { ModuleSsoService } from './module-sso.service.js';
import type { ModulesRepo } from './modules.repo.js';

/** What every signed-in user reaches: the menu's modules, the hand-off into one, and the public key set. */
export const modulesRoutes =
  (s: { repo: ModulesRepo; sso: ModuleSsoService }): FastifyPluginAsyncZod =>
  async (app) => {
    registerCall(app, 'listMyModules', async ({ req }) => {
      const rows = await s.repo.findActiveFor(currentAuth(req).user.group_id);
      return rows.map((m) => ({ ...m, is_active: m.is_active === 1 }));
    });

    registerCall(app, 'moduleAuthUrl', async ({ req, reply, params }) => {
      const answer = await s.sso.authUrl(currentAuth(req).user, params.name);
      // The URL may carry a token: no cache may keep it.
      void reply.header('cache-control', 'no-store');
      return answer;
    });

    // Public and in the standard JWKS shape (no envelope): modules fetch it with stock JWT libraries.
    app.get('/modules/jwks.json', { schema: { tags: ['modules'] } }, async (_req, reply) => {
      void reply.header('cache-control', 'public, max-age=300');
      return reply.send(s.sso.jwks);
    });
  };
