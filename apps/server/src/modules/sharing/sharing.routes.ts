import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentAuth } from '../../lib/auth/auth-guard.js';
import { registerCall } from '../../lib/http/call-route.js';
import type { RateLimits } from '../../plugins/rate-limits.js';
import { adminContextOf } from '../../policies/actor.js';
import type { ShareLinksService } from './share-links.service.js';

/** Share links: making, listing and revoking mine; reading and continuing one by its token. Wiring only. */
export const sharingRoutes =
  (s: ShareLinksService, limits: RateLimits): FastifyPluginAsyncZod =>
  async (app) => {
    registerCall(app, 'createShare', async ({ req, params, body }) =>
      s.create(await adminContextOf(req), params.id, body),
    );
    registerCall(app, 'listShares', ({ req }) => s.list(currentAuth(req).user.id));
    registerCall(app, 'revokeShare', async ({ req, id }) => s.revoke(await adminContextOf(req), id));
    // Open to visitors (public links): limited per address like the site's other open calls.
    registerCall(app, 'readShare', ({ req, params }) => s.read(params.token, req.auth?.user ?? null), {
      config: limits.check,
    });
    registerCall(app, 'continueShare', ({ req, params }) => s.continueInto(params.token, currentAuth(req).user), {
      config: limits.conversationCreate,
    });
  };
