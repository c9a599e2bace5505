import type { AiProvider, ModelKind } from '@aiplatform/contracts';
import type { Generated, Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { ApiUsageTables } from './api-usage-tables.js';
import type { ApiKeyTables } from './api-key-tables.js';
import type {
  ConversationDraftsTable,
  ConversationsTable,
  FilesTable,
  MessageFilesTable,
  MessagesTable,
} from './chat-tables.js';
import type {
  IdentityProvidersTable,
  SamlSeenAssertionsTable,
  ScimTokensTable,
  SsoExchangeCodesTable,
  SsoPreviewsTable,
  SsoStatesTable,
  UserIdentitiesTable,
} from './identity-tables.js';
import type {
  ChunkSearchTable,
  ConversationKnowledgeBasesTable,
  DocumentChunksTable,
  FilePagesTable,
  KnowledgeBaseDocumentsTable,
  KnowledgeBasesTable,
} from './document-tables.js';
import type { SharingTables } from './sharing-tables.js';
import type { PromptTables } from './prompt-tables.js';
import type { GovTables } from './governance-tables.js';
import type { CapsTables } from './caps-tables.js';

export type * from './caps-tables.js';
export type * from './api-key-tables.js';
export type * from './api-usage-tables.js';
export type * from './chat-tables.js';
export type * from './document-tables.js';
export type * from './identity-tables.js';
export type * from './sharing-tables.js';
export type * from './prompt-tables.js';

/*
 * Timestamps are ISO-8601 UTC strings (`Date#toISOString`) in both dialects: they sort
 * and compare correctly as text, and the same query code runs on SQLite and PostgreSQL.
 * Booleans are stored as 0/1 integers for the same reason.
 */
export interface UsersTable {
  id: Generated<number>;
  username: string;
  email: string;
  phone: string | null;
  password_hash: string;
  role: 'super_admin' | 'admin' | 'user';
  status: 'active' | 'inactive';
  group_id: number | null;
  avatar_url: string | null;
  /** Bytes of the uploaded avatar `avatar_url` names (0 when none, or uploaded before sizes were kept). */
  avatar_bytes: Generated<number>;
  credits_quota: number;
  credits_used: number;
  credits_expire_at: string | null;
  token_quota: number;
  token_used: number;
  remark: string | null;
  created_at: string;
  updated_at: string;
  last_login_at: string | null;
  /** Set when the account is retired; a retired account is in no list and holds no identity. */
  deleted_at: Generated<string | null>;
  /** 1: an administrator fixed the group; single sign-on's group mapping leaves it alone. */
  group_pinned: Generated<number>;
  /** The directory's `externalId` for a person provisioned through SCIM. */
  external_id: Generated<string | null>;
  /** The directory's `userName` (often an email, longer than a local username may be). */
  scim_user_name: Generated<string | null>;
  /** Name parts and display name as the directory sent them (JSON), returned unchanged. */
  scim_profile: Generated<string | null>;
}

export interface UserGroupsTable {
  id: Generated<number>;
  name: string;
  description: string;
  color: string;
  sort_order: number;
  status: 'active' | 'inactive';
  credits_pool: number;
  credits_pool_used: number;
  user_limit: number | null;
  site_name: string | null;
  site_logo: string | null;
  site_config_enabled: number;
  /** When the administrators were told the pool ran low; cleared once it is above the alert share again. */
  pool_alert_sent_at: Generated<string | null>;
  /** Days a conversation is kept after its last use, over the site's setting (null: the site's). */
  retention_days: Generated<number | null>;
  created_at: string;
  updated_at: string;
}

export interface UserPermissionsTable {
  id: Generated<number>;
  user_id: number;
  permission: string;
  created_at: string;
}

export interface AuthSessionsTable {
  id: string;
  user_id: number;
  created_at: string;
  last_used_at: string;
  revoked_at: string | null;
  ip: string | null;
  user_agent: string | null;
}

export interface RefreshTokensTable {
  id: Generated<number>;
  session_id: string;
  token_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
  /** The token this one was issued for (null for a session's first token and older rows). */
  parent_id: Generated<number | null>;
  /** Set when a newer successor of the same parent replaced this unused one. */
  superseded_at: Generated<string | null>;
}

export interface EmailCodesTable {
  id: Generated<number>;
  email: string;
  code_hash: string;
  expires_at: string;
  attempts: number;
  consumed_at: string | null;
  created_at: string;
}

export interface LoginAttemptsTable {
  id: Generated<number>;
  account_key: string;
  ip: string;
  succeeded: number;
  created_at: string;
}

export interface CreditTransactionsTable {
  id: Generated<number>;
  user_id: number;
  transaction_type: string;
  amount: number;
  balance_after: number;
  description: string;
  operator_id: number | null;
  reference_id: string | null;
  reason: Generated<string | null>;
  /** Chat charges and refunds: the conversation and model the credits went on. */
  conversation_id: Generated<string | null>;
  model_name: Generated<string | null>;
  /** Where the credits went: the site ('ui') or a personal API key ('api', with its id). */
  source: Generated<'ui' | 'api'>;
  api_key_id: Generated<number | null>;
  created_at: string;
}

export interface SystemSettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

export interface OutboxMailsTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  body: string;
  created_at: string;
}

export interface ModulesTable {
  id: Generated<number>;
  name: string;
  display_name: string;
  description: string;
  type: 'frontend' | 'backend' | 'fullstack';
  menu_icon: string;
  open_mode: 'iframe' | 'new_tab';
  module_url: string;
  is_active: number;
  sort_order: number;
  config: string;
  auth_mode: 'none' | 'signed_token';
  health_check_url: string | null;
  health_status: 'up' | 'down' | 'unknown';
  health_checked_at: string | null;
  health_latency_ms: number | null;
  created_at: string;
  updated_at: string;
}

export interface ModuleGroupsTable {
  module_id: number;
  group_id: number;
}

export interface AnnouncementsTable {
  id: Generated<number>;
  /** 'system' or 'group:<id>'. */
  scope_key: string;
  group_id: number | null;
  content: string;
  enabled: number;
  format: 'markdown';
  starts_at: string | null;
  ends_at: string | null;
  updated_at: string;
  updated_by: number | null;
}

export interface AiModelsTable {
  id: Generated<number>;
  name: string;
  display_name: string;
  provider: AiProvider;
  /** AES-256-GCM ciphertext (lib/secret-box.ts); never leaves the server in clear. */
  api_key_encrypted: string | null;
  api_endpoint: string | null;
  is_active: number;
  credits_per_chat: number;
  /** `chat` (offered in the chat) or `embedding` (turns document passages into vectors). */
  kind: Generated<ModelKind>;
  /** Tokens the model reads at once: decides whether documents go whole or as passages. */
  context_window: Generated<number>;
  /** Credits per 1,000 document tokens sent, added to the turn's price (0: documents are free). */
  credits_per_1k_document_tokens: Generated<number>;
  stream_enabled: number;
  image_upload_enabled: number;
  sort_order: number;
  last_test_at: string | null;
  last_test_status: string | null;
  last_test_message: string | null;
  last_test_latency_ms: number | null;
  created_at: string;
  updated_at: string;
}

export interface AiModelGroupsTable {
  model_id: number;
  group_id: number;
}

export interface GroupPoolTransactionsTable {
  id: Generated<number>;
  group_id: number;
  transaction_type: 'pool_set' | 'group_distribute' | 'group_reclaim';
  amount: number;
  pool_remaining_after: number;
  user_id: number | null;
  operator_id: number | null;
  reason: string | null;
  created_at: string;
}

export interface IdempotencyKeysTable {
  actor_id: number;
  key: string;
  fingerprint: string;
  response: string | null;
  created_at: string;
}

export interface AuditLogsTable {
  id: Generated<number>;
  seq: number;
  actor_id: number | null;
  actor_username: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  /** JSON of {before, after}, secrets redacted; hashed exactly as stored. */
  changes: string;
  ip: string | null;
  request_id: string | null;
  created_at: string;
  prev_hash: string;
  hash: string;
}

export interface AuditChainHeadTable {
  id: number;
  seq: number;
  hash: string;
  /** The first sequence number whose hash is keyed (earlier rows keep their plain hash). */
  keyed_from: number;
  /** The audit key's seal over `keyed_from` and the hash the keyed rows start from. */
  keyed_seal: string;
}

/** A signed statement of the chain head (see audit-checkpoints.ts). */
export interface AuditCheckpointsTable {
  id: Generated<number>;
  /** Rows in the chain: the newest row's sequence number. */
  count: number;
  last_id: number | null;
  hash: string;
  created_at: string;
  created_by: number | null;
  signature: string;
}

/** One user's usage of one model on one statistics day, added to by the transaction that charges,
 * settles or refunds a chat turn; `group_id`: the user's group at the time, 0 for none. */
export interface UsageDailyTable {
  day: string;
  user_id: number;
  model_name: string;
  group_id: number;
  messages: number;
  tokens: number;
  credits: number;
  /** Conversations whose first turn this was. */
  conversations: number;
}

/** The same numbers summed per (day, group, model): what the platform-wide charts read. */
export interface UsageDailyTotalsTable {
  day: string;
  group_id: number;
  model_name: string;
  messages: number;
  tokens: number;
  credits: number;
  conversations: number;
}

/** Every table; the newer areas' tables come from their own files. */
export interface Database extends CapsTables, ApiKeyTables, ApiUsageTables, SharingTables, PromptTables, GovTables {
  file_pages: FilePagesTable;
  document_chunks: DocumentChunksTable;
  chunk_search: ChunkSearchTable;
  knowledge_bases: KnowledgeBasesTable;
  knowledge_base_documents: KnowledgeBaseDocumentsTable;
  conversation_knowledge_bases: ConversationKnowledgeBasesTable;
  identity_providers: IdentityProvidersTable;
  user_identities: UserIdentitiesTable;
  sso_states: SsoStatesTable;
  sso_exchange_codes: SsoExchangeCodesTable;
  sso_previews: SsoPreviewsTable;
  saml_seen_assertions: SamlSeenAssertionsTable;
  scim_tokens: ScimTokensTable;
  usage_daily: UsageDailyTable;
  usage_daily_totals: UsageDailyTotalsTable;
  group_pool_transactions: GroupPoolTransactionsTable;
  idempotency_keys: IdempotencyKeysTable;
  audit_logs: AuditLogsTable;
  audit_chain_head: AuditChainHeadTable;
  audit_checkpoints: AuditCheckpointsTable;
  ai_models: AiModelsTable;
  ai_model_groups: AiModelGroupsTable;
  files: FilesTable;
  conversations: ConversationsTable;
  messages: MessagesTable;
  message_files: MessageFilesTable;
  conversation_drafts: ConversationDraftsTable;
  modules: ModulesTable;
  module_groups: ModuleGroupsTable;
  announcements: AnnouncementsTable;
  users: UsersTable;
  user_groups: UserGroupsTable;
  user_permissions: UserPermissionsTable;
  auth_sessions: AuthSessionsTable;
  refresh_tokens: RefreshTokensTable;
  email_codes: EmailCodesTable;
  login_attempts: LoginAttemptsTable;
  credit_transactions: CreditTransactionsTable;
  system_settings: SystemSettingsTable;
  outbox_mails: OutboxMailsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type GroupRow = Selectable<UserGroupsTable>;
export type ScimTokenRow = Selectable<ScimTokensTable>;
export type AuditLogRow = Selectable<AuditLogsTable>;
export type AuditCheckpointRow = Selectable<AuditCheckpointsTable>;
export type AiModelRow = Selectable<AiModelsTable>;
export type ModuleRow = Selectable<ModulesTable>;
export type AnnouncementRow = Selectable<AnnouncementsTable>;
export type FileRow = Selectable<FilesTable>;
export type ConversationRow = Selectable<ConversationsTable>;
export type MessageRow = Selectable<MessagesTable>;
export type IdentityProviderRow = Selectable<IdentityProvidersTable>;
export type UserIdentityRow = Selectable<UserIdentitiesTable>;

/** The database or a transaction on it: what every repo method runs its SQL on. */
export type Db = Kysely<Database> | Transaction<Database>;
