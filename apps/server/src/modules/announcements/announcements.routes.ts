import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentAuth } from '../../lib/auth/auth-guard.js';
import { registerCall } from '../../lib/http/call-route.js';
import { actorOf, adminContextOf } from '../../policies/actor.js';
import type { AnnouncementsService } from './announcements.service.js';

/** The system and group announcements: wiring only. */
export const announcementsRoutes =
  (s: AnnouncementsService): FastifyPluginAsyncZod =>
  async (app) => {
    registerCall(app, 'getAnnouncement', async ({ req }) => s.system(await actorOf(req)));
    registerCall(app, 'updateAnnouncement', async ({ req, body }) => s.updateSystem(await adminContextOf(req), body));
    registerCall(app, 'getGroupAnnouncement', async ({ req, id }) => s.group(await actorOf(req), id));
    registerCall(app, 'updateGroupAnnouncement', async ({ req, id, body }) =>
      s.updateGroup(await adminContextOf(req), id, body),
    );
    registerCall(app, 'myGroupAnnouncement', ({ req }) => s.forMember(currentAuth(req).user.group_id));
  };
