import type { FastifyPluginAsync } from 'fastify';
import type { RateLimits } from '../../plugins/rate-limits.js';
import type { IdentityServices } from './identity.services.js';
import { sendSamlStart } from './saml/saml.routes.js';
import { publicBase, toSignInPage } from './sso-browser.js';

/**
 * GET /api/auth/sso/:slug/start, one address for every browser protocol: the provider's type
 * decides whether the browser goes to an OIDC authorization endpoint or to a SAML IdP.
 */
export const ssoStartRoutes =
  (
    s: Pick<IdentityServices, 'providers' | 'oidc' | 'saml'>,
    limits: RateLimits,
    publicUrl: string | undefined,
  ): FastifyPluginAsync =>
  async (app) => {
    app.get<{ Params: { slug: string }; Querystring: Record<string, string> }>(
      '/auth/sso/:slug/start',
      { config: { ...limits.auth } },
      async (req, reply) => {
        try {
          const { slug } = req.params;
          const redirect = typeof req.query.redirect === 'string' ? req.query.redirect : undefined;
          // The starting tab's own random value: only that tab can finish this sign-in.
          const binding = typeof req.query.binding === 'string' ? req.query.binding : undefined;
          const base = publicBase(req, publicUrl);
          if ((await s.providers.bySlug(slug))?.type === 'saml') {
            return sendSamlStart(req, reply, await s.saml.start(slug, redirect, base, binding));
          }
          // Not SAML: OIDC, which answers NOT_FOUND for a slug that is no OIDC provider either.
          const to = await s.oidc.start(slug, redirect, base, binding);
          return reply.header('cache-control', 'no-store').redirect(to.href, 302);
        } catch (err) {
          return toSignInPage(req, reply, err, publicUrl);
        }
      },
    );
  };
