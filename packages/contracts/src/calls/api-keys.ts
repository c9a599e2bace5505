import { z } from 'zod';
import {
  AdminApiKeyListQuerySchema,
  AdminApiKeySchema,
  ApiKeyModelSchema,
  ApiKeySchema,
  CreateApiKeyBodySchema,
  CreatedApiKeySchema,
} from '../api-keys.js';
import type { CallSpec } from './spec.js';

const IdResult = z.object({ id: z.number() });

/**
 * Personal API keys: their owners make, list and revoke them (permission `api.keys`);
 * administrators list and revoke the keys of the users they manage. The keys themselves
 * are presented at /v1, outside this table.
 */
export const API_KEY_CALLS = {
  listApiKeys: { method: 'GET', path: '/keys', access: 'api_key.use', response: z.array(ApiKeySchema) },
  listApiKeyModels: {
    method: 'GET',
    path: '/keys/models',
    access: 'api_key.use',
    response: z.array(ApiKeyModelSchema),
    summary: 'The models /v1 lets this user call, for choosing the ones a key may use.',
  },
  createApiKey: {
    method: 'POST',
    path: '/keys',
    access: 'api_key.use',
    body: CreateApiKeyBodySchema,
    response: CreatedApiKeySchema,
    status: 201,
    summary: 'The secret is in this answer only; the server keeps its hash.',
  },
  revokeApiKey: { method: 'DELETE', path: '/keys/:id', access: 'api_key.use', response: IdResult },
  listAdminApiKeys: {
    method: 'GET',
    path: '/admin/api-keys',
    access: 'api_key.admin',
    query: AdminApiKeyListQuerySchema,
    response: z.array(AdminApiKeySchema),
    paginated: true,
  },
  revokeAdminApiKey: { method: 'DELETE', path: '/admin/api-keys/:id', access: 'api_key.admin', response: IdResult },
} as const satisfies Record<string, CallSpec>;
