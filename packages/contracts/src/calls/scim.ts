import { z } from 'zod';
import { CreateScimTokenBodySchema, CreatedScimTokenSchema, ScimTokenSchema } from '../admin/scim-tokens.js';
import type { CallSpec } from './spec.js';

/**
 * The SCIM tokens an identity provider provisions with. The SCIM protocol itself is served
 * at /scim/v2 with its own media type, bearer token and error schema, outside this table.
 */
export const SCIM_CALLS = {
  listScimTokens: {
    method: 'GET',
    path: '/admin/scim-tokens',
    access: 'identity.manage',
    response: z.array(ScimTokenSchema),
  },
  createScimToken: {
    method: 'POST',
    path: '/admin/scim-tokens',
    access: 'identity.manage',
    body: CreateScimTokenBodySchema,
    response: CreatedScimTokenSchema,
    status: 201,
  },
  revokeScimToken: {
    method: 'DELETE',
    path: '/admin/scim-tokens/:id',
    access: 'identity.manage',
    response: z.object({ id: z.number() }),
  },
} as const satisfies Record<string, CallSpec>;
