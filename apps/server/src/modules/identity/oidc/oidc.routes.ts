import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RateLimits } from '../../../plugins/rate-limits.js';
import { publicBase, toFlowEnd, toSignInPage } from '../sso-browser.js';
import type { OidcSignIn } from './oidc-sign-in.js';

/**
 * GET /api/auth/sso/:slug/callback (its `start` is the shared one in sso-start.routes.ts): a
 * browser redirect, not a JSON call. Any failure lands on the sign-in page with the error's
 * code (`/login?sso_error=CODE`), which the page shows translated; a success lands on
 * `/sso/complete` with the one-time code in the fragment, and where to go next (an
 * administrator's test sign-in: on the identity page with its preview code).
 */
export const oidcRoutes =
  (oidc: OidcSignIn, limits: RateLimits, publicUrl: string | undefined): FastifyPluginAsyncZod =>
  async (app) => {
    app.get<{ Params: { slug: string } }>(
      '/auth/sso/:slug/callback',
      { config: { ...limits.auth } },
      async (req, reply) => {
        try {
          const query = new URLSearchParams(req.url.split('?')[1] ?? '');
          return toFlowEnd(reply, await oidc.finish(req.params.slug, query, publicBase(req, publicUrl)), publicUrl);
        } catch (err) {
          return toSignInPage(req, reply, err, publicUrl);
        }
      },
    );
  };
