import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../../../lib/data/db-errors.js';
import { AppError } from '../../../lib/http/errors.js';
import { translate } from '../../../lib/runtime/i18n.js';
import { samlPostFormPage, samlPostFormPolicy } from './saml-post-form.js';
import type { RateLimits } from '../../../plugins/rate-limits.js';
import type { SamlSignInService } from './saml-sign-in.service.js';

/** A SAML Response with a few certificates and attributes is some kilobytes; this leaves room for large group lists. */
const ACS_BODY_LIMIT = 512 * 1024;

type SlugParams = { Params: { slug: string } };

/**
 * The browser-facing SAML routes, plain HTTP rather than JSON calls: `start` answers a
 * redirect (or a self-posting form), the ACS receives the IdP's form post and answers a
 * redirect, `metadata` answers XML. Every failure of `start` and the ACS lands on the login
 * page with the error's code, since a person is looking at the result, not a program.
 */
export const samlRoutes =
  (saml: SamlSignInService, publicUrl: string | undefined, limits: RateLimits): FastifyPluginAsync =>
  async (app) => {
    const publicBase = (req: FastifyRequest) => publicUrl ?? `${req.protocol}://${req.host}`;

    // The IdP posts an HTML form; this parser serves only the routes of this plugin.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: ACS_BODY_LIMIT },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    app.get<SlugParams & { Querystring: { redirect?: string } }>(
      '/auth/sso/:slug/start',
      { config: limits.auth },
      async (req, reply) => {
        try {
          const redirect = typeof req.query.redirect === 'string' ? req.query.redirect : undefined;
          const start = await saml.start(req.params.slug, redirect, publicBase(req));
          if (start.kind === 'redirect') return reply.redirect(start.url, 302);
          const nonce = randomBytes(16).toString('base64');
          const label = translate(req.lang, 'server.identity.saml.continue');
          return reply
            .header('Content-Security-Policy', samlPostFormPolicy(start.action, nonce))
            .header('Cache-Control', 'no-store')
            .type('text/html; charset=utf-8')
            .send(samlPostFormPage(start.action, start.fields, nonce, label));
        } catch (err) {
          return toLogin(reply, err, req.log);
        }
      },
    );

    app.post<SlugParams & { Body: Record<string, string> | undefined }>(
      '/auth/sso/:slug/acs',
      { config: limits.auth },
      async (req, reply) => {
        try {
          const form = req.body && typeof req.body === 'object' ? req.body : {};
          const { code, redirect } = await saml.acs(req.params.slug, form, publicBase(req));
          // The code travels in the fragment: never sent to a server, so not in any access log.
          const fragment = new URLSearchParams({ code, redirect }).toString();
          return reply.header('Cache-Control', 'no-store').redirect(`/sso/complete#${fragment}`, 302);
        } catch (err) {
          return toLogin(reply, err, req.log);
        }
      },
    );

    app.get<SlugParams>('/auth/sso/:slug/metadata', async (req, reply) =>
      reply
        .type('application/samlmetadata+xml; charset=utf-8')
        .send(await saml.metadata(req.params.slug, publicBase(req))),
    );
  };

function toLogin(reply: FastifyReply, err: unknown, log: FastifyBaseLogger) {
  let code: string;
  if (err instanceof AppError) {
    code = err.code;
    // Why a Response was refused is for the administrator reading the log, not for the page.
    if (err.cause instanceof Error) log.warn({ code, reason: err.cause.message }, 'SAML sign-in refused');
  } else {
    code = isDatabaseUnavailable(err) ? 'SERVICE_UNAVAILABLE' : 'INTERNAL';
    log.error({ err }, 'SAML sign-in failed');
  }
  return reply.header('Cache-Control', 'no-store').redirect(`/login?sso_error=${encodeURIComponent(code)}`, 302);
}
