import type { AdminApiKey, ApiKey } from '@aiplatform/contracts';
import type { ApiKeyRow } from '../../db/types.js';
import { parseList } from './api-key-auth.js';
import type { ApiKeyWithOwner } from './api-keys.repo.js';

/** A key as its owner sees it: never the secret or its hash. */
export function presentApiKey(row: ApiKeyRow, spent: number): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    models: parseList(row.models),
    credit_limit: row.credit_limit,
    period: row.period,
    spent_in_period: spent,
    expires_at: row.expires_at,
    ip_allow: parseList(row.ip_allow),
    rpm: row.rpm,
    last_used_at: row.last_used_at,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
  };
}

/** A key in the administrators' list: with whose it is. */
export function presentAdminApiKey(row: ApiKeyWithOwner, spent: number): AdminApiKey {
  return { ...presentApiKey(row, spent), user_id: row.user_id, username: row.username, email: row.email };
}

/** What the audit log keeps of a key. */
export function keySnapshot(row: ApiKeyRow): Record<string, unknown> {
  return { name: row.name, prefix: row.prefix, user_id: row.user_id, revoked_at: row.revoked_at };
}
