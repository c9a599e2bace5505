import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerCall } from '../../lib/http/call-route.js';
import type { RateLimits } from '../../plugins/rate-limits.js';
import { actorOf, adminContextOf } from '../../policies/actor.js';
import type { IdentityServices } from './identity.services.js';
import { oidcRoutes } from './oidc/oidc.routes.js';
import { samlRoutes } from './saml/saml.routes.js';
import { publicBase } from './sso-browser.js';
import { ssoStartRoutes } from './sso-start.routes.js';

const client = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] ?? null });

/**
 * /admin/identity-providers…, /auth/providers, /auth/sso/exchange and each protocol's
 * routes: wiring only. `publicUrl` is PUBLIC_URL (unset: each request's own address).
 */
export const identityRoutes =
  (s: IdentityServices, limits: RateLimits, publicUrl: string | undefined): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(ssoStartRoutes(s, limits, publicUrl));
    await app.register(oidcRoutes(s.oidc, limits, publicUrl));
    await app.register(samlRoutes(s.saml, limits, publicUrl));
    const { providers } = s;
    registerCall(app, 'listIdentityProviders', async ({ req }) => providers.list(await actorOf(req)));
    registerCall(app, 'getIdentityProvider', async ({ req, id }) => providers.get(await actorOf(req), id));
    registerCall(app, 'createIdentityProvider', async ({ req, body }) =>
      providers.create(await adminContextOf(req), body),
    );
    registerCall(app, 'updateIdentityProvider', async ({ req, id, body }) =>
      providers.update(await adminContextOf(req), id, body),
    );
    registerCall(app, 'deleteIdentityProvider', async ({ req, id }) => providers.remove(await adminContextOf(req), id));
    registerCall(app, 'testIdentityProvider', async ({ req, id }) => providers.test(await actorOf(req), id, req.lang));
    registerCall(app, 'previewIdentityProvider', async ({ req, id, body }) =>
      s.previews.start(await adminContextOf(req), id, body, publicBase(req, publicUrl)),
    );
    registerCall(app, 'previewIdentityProviderResult', async ({ req, id, body }) =>
      s.previews.result(await adminContextOf(req), id, body.code),
    );
    registerCall(app, 'listSignInProviders', () => providers.signInProviders());
    registerCall(app, 'exchangeSsoCode', ({ req, body }) => s.exchange.exchange(body.code, client(req), body.binding), {
      config: limits.auth,
    });
  };
