import { AnnouncementSchema } from '@aiplatform/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerCall } from '../../lib/admin-route.js';
import { type Guards, currentAuth } from '../../lib/auth-guard.js';
import { sendOk } from '../../lib/envelope.js';
import { successEnvelope } from '../../lib/openapi.js';
import { actorOf, adminContextOf } from '../../policies/actor.js';
import type { AnnouncementsService } from './announcements.service.js';

/** The system and group announcements: wiring only. */
export const announcementsRoutes =
  (s: AnnouncementsService, guards: Guards): FastifyPluginAsyncZod =>
  async (app) => {
    const pre = [guards.authenticate];
    registerCall(app, 'getAnnouncement', pre, async ({ req }) => s.system(await actorOf(req)));
    registerCall(app, 'updateAnnouncement', pre, async ({ req, body }) =>
      s.updateSystem(await adminContextOf(req), body),
    );
    registerCall(app, 'getGroupAnnouncement', pre, async ({ req, id }) => s.group(await actorOf(req), id));
    registerCall(app, 'updateGroupAnnouncement', pre, async ({ req, id, body }) =>
      s.updateGroup(await adminContextOf(req), id, body),
    );
    app.get(
      '/stats/my-group-announcement',
      {
        preHandler: pre,
        schema: {
          tags: ['announcements'],
          summary: "The signed-in user's group announcement while it is visible, else an empty one",
          response: { 200: successEnvelope(AnnouncementSchema) },
        },
      },
      async (req, reply) => sendOk(req, reply, await s.forMember(currentAuth(req).user.group_id)),
    );
  };
