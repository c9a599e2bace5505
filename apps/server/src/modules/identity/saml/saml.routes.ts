import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { translate } from '../../../lib/runtime/i18n.js';
import type { RateLimits } from '../../../plugins/rate-limits.js';
import { publicBase, toFlowEnd, toSignInPage } from '../sso-browser.js';
import { samlPostFormPage, samlPostFormPolicy } from './saml-post-form.js';
import type { SamlLoginStart } from './saml-sp.js';
import type { SamlSignInService } from './saml-sign-in.service.js';

/** A SAML Response with a few certificates and attributes is some kilobytes; this leaves room for large group lists. */
const ACS_BODY_LIMIT = 512 * 1024;

type SlugParams = { Params: { slug: string } };

/**
 * The SAML routes besides `start` (sso-start.routes.ts), plain HTTP rather than JSON calls:
 * the ACS receives the IdP's form post and answers a redirect (to /sso/complete, or to the
 * sign-in page with the error's code); `metadata` answers the SP metadata XML.
 */
export const samlRoutes =
  (saml: SamlSignInService, limits: RateLimits, publicUrl: string | undefined): FastifyPluginAsync =>
  async (app) => {
    // The IdP posts an HTML form; this parser serves only the routes of this plugin.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: ACS_BODY_LIMIT },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    app.post<SlugParams & { Body: Record<string, string> | undefined }>(
      '/auth/sso/:slug/acs',
      { config: { ...limits.auth } },
      async (req, reply) => {
        try {
          const form = req.body && typeof req.body === 'object' ? req.body : {};
          return toFlowEnd(reply, await saml.acs(req.params.slug, form, publicBase(req, publicUrl)), publicUrl);
        } catch (err) {
          return toSignInPage(req, reply, err, publicUrl);
        }
      },
    );

    app.get<SlugParams>('/auth/sso/:slug/metadata', async (req, reply) =>
      reply
        .type('application/samlmetadata+xml; charset=utf-8')
        .send(await saml.metadata(req.params.slug, publicBase(req, publicUrl))),
    );
  };

/** `start` for a SAML provider: a 302 to the IdP, or the self-posting form when it takes only HTTP-POST. */
export function sendSamlStart(req: FastifyRequest, reply: FastifyReply, start: SamlLoginStart) {
  if (start.kind === 'redirect') return reply.header('cache-control', 'no-store').redirect(start.url, 302);
  const nonce = randomBytes(16).toString('base64');
  const label = translate(req.lang, 'server.identity.saml.continue');
  return reply
    .header('content-security-policy', samlPostFormPolicy(start.action, nonce))
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(samlPostFormPage(start.action, start.fields, nonce, label));
}
