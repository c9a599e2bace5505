import { AnnouncementSchema } from '@aiplatform/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerCall } from '../../lib/call-route.js';
import { type Guards, currentAuth } from '../../lib/auth-guard.js';
import { sendOk } from '../../lib/envelope.js';
import { successEnvelope } from '../../lib/openapi.js';
import { actorOf, adminContextOf } from '../../policies/actor.js';
import type { AnnouncementsService } from './announcements.service.js';

/** The system and group announcements: wiring only. */
export const announcementsRoutes =
  (s: AnnouncementsService, guards: Guards): FastifyPluginAsyncZod =>
  async (app) => {
    registerCall(app, 'getAnnouncement', async ({ req }) => s.system(await actorOf(req)));
    registerCall(app, 'updateAnnouncement', async ({ req, body }) => s.updateSystem(await adminContextOf(req), body));
    registerCall(app, 'getGroupAnnouncement', async ({ req, id }) => s.group(await actorOf(req), id));
    registerCall(app, 'updateGroupAnnouncement', async ({ req, id, body }) =>
      s.updateGroup(await adminContextOf(req), id, body),
    );
    app.get(
      '/stats/my-group-announcement',
      {
        preValidation: guards.authenticate,
        schema: {
          tags: ['announcements'],
          summary: "The signed-in user's group announcement while it is visible, else an empty one",
          response: { 200: successEnvelope(AnnouncementSchema) },
        },
      },
      async (req, reply) => sendOk(req, reply, await s.forMember(currentAuth(req).user.group_id)),
    );
  };
