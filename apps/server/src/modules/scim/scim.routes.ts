import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ScimTokenRow } from '../../db/types.js';
import type { Actor, AdminContext } from '../../policies/actor.js';
import { resourceTypes, schemas, serviceProviderConfig } from './scim-discovery.js';
import { ScimError, scimErrorBody } from './scim-errors.js';
import { patchOperations } from './scim-patch.js';
import { excludes, pagingOf } from './scim-query.js';
import type { ScimGroupsService } from './scim-groups.service.js';
import type { ScimTokensService } from './scim-tokens.service.js';
import type { ScimUsersService } from './scim-users.service.js';

export const SCIM_PREFIX = '/scim/v2';
const SCIM_TYPE = 'application/scim+json; charset=utf-8';

/**
 * The directory acts as an administrator of plain accounts and groups, never of a super
 * administrator's account (the policy refuses that to anyone who is not one). The audit log
 * names the token: no person stands behind the change.
 */
const actorOf = (token: ScimTokenRow): Actor => ({
  id: 0,
  username: `scim:${token.id}`,
  role: 'admin',
  group_id: null,
  permissions: ['user.manage', 'group.manage'],
});

type Query = Record<string, unknown>;

/**
 * /scim/v2 (RFC 7644): plain routes, not JSON calls of the API, because SCIM has its own
 * media type, its own bearer token and its own error schema. Wiring only.
 */
export const scimRoutes =
  (s: { tokens: ScimTokensService; users: ScimUsersService; groups: ScimGroupsService }) =>
  async (app: FastifyInstance): Promise<void> => {
    const tokens = new WeakMap<FastifyRequest, ScimTokenRow>();
    app.addContentTypeParser(
      'application/scim+json',
      { parseAs: 'string' },
      app.getDefaultJsonParser('error', 'error'),
    );

    app.addHook('onRequest', async (req) => {
      const header = req.headers.authorization ?? '';
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      const token = match ? await s.tokens.recognise(match[1]!) : undefined;
      if (!token) throw new ScimError(401, 'A valid SCIM bearer token is required');
      tokens.set(req, token);
    });
    app.setErrorHandler(async (err, req, reply) => {
      const { status, body } = scimErrorBody(req, err);
      if (status === 401) void reply.header('www-authenticate', 'Bearer');
      return send(reply, status, body);
    });
    app.setNotFoundHandler(async (_req, reply) =>
      send(reply, 404, scimErrorBody(_req, new ScimError(404, 'No such SCIM endpoint')).body),
    );

    const ctx = (req: FastifyRequest): AdminContext => ({
      actor: actorOf(tokens.get(req)!),
      ip: req.ip,
      requestId: req.id,
    });
    const base = (req: FastifyRequest) => `${req.protocol}://${req.host}${SCIM_PREFIX}`;
    const id = (req: FastifyRequest) => (req.params as { id: string }).id;
    const query = (req: FastifyRequest) => (req.query ?? {}) as Query;
    const filterOf = (req: FastifyRequest) => {
      const f = query(req).filter;
      return typeof f === 'string' ? f : undefined;
    };
    const withMembers = (req: FastifyRequest) => !excludes(query(req), 'members');
    const hidden = { schema: { tags: ['scim'] } };

    app.get('/ServiceProviderConfig', hidden, async (req, reply) => send(reply, 200, serviceProviderConfig(base(req))));
    app.get('/ResourceTypes', hidden, async (req, reply) => {
      const list = resourceTypes(base(req));
      return send(reply, 200, listOf(list));
    });
    app.get('/Schemas', hidden, async (req, reply) => send(reply, 200, listOf(schemas(base(req)))));

    app.get('/Users', hidden, async (req, reply) =>
      send(reply, 200, await s.users.list(filterOf(req), pagingOf(query(req)), base(req))),
    );
    app.post('/Users', hidden, async (req, reply) =>
      send(reply, 201, await s.users.create(ctx(req), req.body, base(req))),
    );
    app.get('/Users/:id', hidden, async (req, reply) => send(reply, 200, await s.users.get(id(req), base(req))));
    app.put('/Users/:id', hidden, async (req, reply) =>
      send(reply, 200, await s.users.replace(ctx(req), id(req), req.body, base(req))),
    );
    app.patch('/Users/:id', hidden, async (req, reply) =>
      send(reply, 200, await s.users.patch(ctx(req), id(req), patchOperations(req.body), base(req))),
    );
    app.delete('/Users/:id', hidden, async (req, reply) => {
      await s.users.remove(ctx(req), id(req));
      return reply.code(204).send();
    });

    app.get('/Groups', hidden, async (req, reply) =>
      send(reply, 200, await s.groups.list(filterOf(req), pagingOf(query(req)), withMembers(req), base(req))),
    );
    app.post('/Groups', hidden, async (req, reply) =>
      send(reply, 201, await s.groups.create(ctx(req), req.body, base(req))),
    );
    app.get('/Groups/:id', hidden, async (req, reply) =>
      send(reply, 200, await s.groups.get(id(req), withMembers(req), base(req))),
    );
    app.put('/Groups/:id', hidden, async (req, reply) =>
      send(reply, 200, await s.groups.replace(ctx(req), id(req), req.body, base(req))),
    );
    app.patch('/Groups/:id', hidden, async (req, reply) =>
      send(reply, 200, await s.groups.patch(ctx(req), id(req), patchOperations(req.body), base(req))),
    );
    app.delete('/Groups/:id', hidden, async (req, reply) => {
      await s.groups.remove(ctx(req), id(req));
      return reply.code(204).send();
    });
  };

/** The discovery lists are ListResponses too (RFC 7644 §4). */
const listOf = (resources: unknown[]) => ({
  schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
  totalResults: resources.length,
  startIndex: 1,
  itemsPerPage: resources.length,
  Resources: resources,
});

function send(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.code(status).header('content-type', SCIM_TYPE).send(JSON.stringify(body));
}
