import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../../lib/http/errors.js';
import type { RateLimits } from '../../../plugins/rate-limits.js';
import type { OidcSignIn } from './oidc-sign-in.js';

/** The site's address as the browser reaches it: PUBLIC_URL, else this request's scheme and host. */
export function publicBase(req: FastifyRequest, publicUrl: string | undefined): string {
  return publicUrl ?? `${req.protocol}://${req.host}`;
}

/**
 * GET /api/auth/sso/:slug/start and …/callback: browser redirects, not JSON calls. Any
 * failure lands on the sign-in page with the error's code (`/login?sso_error=CODE`), which
 * the page shows translated; a success lands on `/sso/complete` with the one-time code in the
 * fragment (never sent to any server, kept out of logs and Referer), and where to go next.
 */
export const oidcRoutes =
  (oidc: OidcSignIn, limits: RateLimits, publicUrl: string | undefined): FastifyPluginAsyncZod =>
  async (app) => {
    const site = publicUrl ?? '';
    const fail = (req: FastifyRequest, reply: FastifyReply, err: unknown) => {
      const code = err instanceof AppError ? err.code : 'INTERNAL';
      if (!(err instanceof AppError)) req.log.warn({ err }, 'single sign-on failed');
      return reply.header('cache-control', 'no-store').redirect(`${site}/login?sso_error=${code}`, 302);
    };
    const config = { ...limits.auth };

    app.get<{ Params: { slug: string }; Querystring: Record<string, string> }>(
      '/auth/sso/:slug/start',
      { config },
      async (req, reply) => {
        try {
          const redirect = typeof req.query.redirect === 'string' ? req.query.redirect : undefined;
          const to = await oidc.start(req.params.slug, redirect, publicBase(req, publicUrl));
          return reply.header('cache-control', 'no-store').redirect(to.href, 302);
        } catch (err) {
          return fail(req, reply, err);
        }
      },
    );

    app.get<{ Params: { slug: string } }>('/auth/sso/:slug/callback', { config }, async (req, reply) => {
      try {
        const query = new URLSearchParams(req.url.split('?')[1] ?? '');
        const { code, redirect } = await oidc.finish(req.params.slug, query, publicBase(req, publicUrl));
        const fragment = new URLSearchParams({ code, redirect });
        return reply.header('cache-control', 'no-store').redirect(`${site}/sso/complete#${fragment.toString()}`, 302);
      } catch (err) {
        return fail(req, reply, err);
      }
    });
  };
