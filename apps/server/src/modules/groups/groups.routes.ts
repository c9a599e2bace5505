import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idempotencyKeyOf, registerCall } from '../../lib/http/call-route.js';
import { actorOf, adminContextOf } from '../../policies/actor.js';
import type { GroupPoolService } from './group-pool.service.js';
import type { GroupsService } from './groups.service.js';

/** /admin/user-groups…: wiring only. */
export const groupsRoutes =
  (s: { groups: GroupsService; pool: GroupPoolService }): FastifyPluginAsyncZod =>
  async (app) => {
    registerCall(app, 'listGroups', async ({ req, query }) =>
      s.groups.list(await actorOf(req), query.page, query.limit),
    );
    registerCall(app, 'createGroup', async ({ req, body }) => s.groups.create(await adminContextOf(req), body));
    registerCall(app, 'getGroup', async ({ req, id }) => s.groups.get(await actorOf(req), id));
    registerCall(app, 'updateGroup', async ({ req, id, body }) => s.groups.update(await adminContextOf(req), id, body));
    registerCall(app, 'deleteGroup', async ({ req, id }) => s.groups.remove(await adminContextOf(req), id));
    registerCall(app, 'setCreditsPool', async ({ req, id, body }) =>
      s.groups.setPool(await adminContextOf(req), id, body.credits_pool),
    );
    registerCall(app, 'setUserLimit', async ({ req, id, body }) =>
      s.groups.setUserLimit(await adminContextOf(req), id, body.user_limit),
    );
    registerCall(app, 'setGroupSiteConfig', async ({ req, id, body }) =>
      s.groups.setSiteConfig(await adminContextOf(req), id, body),
    );
    registerCall(app, 'distributeCredits', async ({ req, id, body }) =>
      s.pool.transfer(await adminContextOf(req), id, body, idempotencyKeyOf(req), req.lang),
    );
  };
