import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentAuth } from '../../lib/auth/auth-guard.js';
import { registerCall } from '../../lib/http/call-route.js';
import { actorOf, adminContextOf } from '../../policies/actor.js';
import type { CapsServices } from './caps.services.js';

/** Usage caps (administrators' and personal) and the bell: wiring only. */
export const capsRoutes =
  (s: CapsServices): FastifyPluginAsyncZod =>
  async (app) => {
    registerCall(app, 'getUserCaps', async ({ req, id }) => s.caps.userCaps(await actorOf(req), id));
    registerCall(app, 'updateUserCaps', async ({ req, id, body }) =>
      s.caps.updateUserCaps(await adminContextOf(req), id, body),
    );
    registerCall(app, 'getGroupCaps', async ({ req, id }) => s.caps.groupCaps(await actorOf(req), id));
    registerCall(app, 'updateGroupCaps', async ({ req, id, body }) =>
      s.caps.updateGroupCaps(await adminContextOf(req), id, body),
    );
    registerCall(app, 'getMyCaps', ({ req }) => s.caps.mine(currentAuth(req).user));
    registerCall(app, 'updateMyCaps', ({ req, body }) => s.caps.updateMine(currentAuth(req).user, body));
    registerCall(app, 'listNotifications', ({ req }) => s.notifications.list(currentAuth(req).user.id, req.lang));
    registerCall(app, 'readNotification', ({ req, id }) => s.notifications.read(currentAuth(req).user.id, id));
  };
