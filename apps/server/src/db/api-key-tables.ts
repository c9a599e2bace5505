import type { ApiKeyPeriod } from '@aiplatform/contracts';
import type { Generated, Selectable } from 'kysely';

/** A personal API key: only the SHA-256 of its secret is kept; revoked keys stay for the record. */
export interface ApiKeysTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** The secret's first characters, for people to recognise the key in a list. */
  prefix: string;
  secret_hash: string;
  /** JSON list of model names the key may call; empty: every model its owner may use. */
  models: string;
  credit_limit: number | null;
  period: ApiKeyPeriod | null;
  expires_at: string | null;
  /** JSON list of CIDRs the key may be used from; empty: anywhere. */
  ip_allow: string;
  /** Requests per minute; null: no limit of the key's own. */
  rpm: number | null;
  last_used_at: string | null;
  created_at: string;
  revoked_at: string | null;
}

/** A permission granted to every member of a group. */
export interface GroupPermissionsTable {
  id: Generated<number>;
  group_id: number;
  permission: string;
  created_at: string;
}

/** These tables, as `Database` in types.ts gathers them. */
export interface ApiKeyTables {
  api_keys: ApiKeysTable;
  group_permissions: GroupPermissionsTable;
}

export type ApiKeyRow = Selectable<ApiKeysTable>;
