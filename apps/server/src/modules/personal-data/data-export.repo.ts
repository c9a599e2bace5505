import type { Kysely } from 'kysely';
import type { ConversationRow, Database, FileRow } from '../../db/types.js';

/** Conversations, ledger rows and files read per statement while an export streams. */
const BATCH = 200;

/**
 * Everything an export reads of one person, always by their id: the rows of others never
 * enter a query's result (a conversation's messages are read only once the conversation was
 * found among the person's own).
 */
/** The ledger's columns in the export, in the CSV's order. */
export const LEDGER_COLUMNS = [
  'id',
  'created_at',
  'transaction_type',
  'amount',
  'balance_after',
  'description',
  'reason',
  'conversation_id',
  'model_name',
  'source',
  'api_key_id',
] as const;

export class DataExportRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** The account, retired or not, with its group's name; never the password hash. */
  profile(userId: number) {
    return this.db
      .selectFrom('users')
      .leftJoin('user_groups', 'user_groups.id', 'users.group_id')
      .select([
        'users.id',
        'users.username',
        'users.email',
        'users.phone',
        'users.role',
        'users.status',
        'users.group_id',
        'user_groups.name as group_name',
        'users.avatar_url',
        'users.credits_quota',
        'users.credits_used',
        'users.credits_expire_at',
        'users.token_quota',
        'users.token_used',
        'users.remark',
        'users.external_id',
        'users.scim_user_name',
        'users.created_at',
        'users.updated_at',
        'users.last_login_at',
        'users.deleted_at',
      ])
      .where('users.id', '=', userId)
      .executeTakeFirst();
  }

  /** The single sign-on identities tied to the account, with their provider's name. */
  identities(userId: number) {
    return this.db
      .selectFrom('user_identities')
      .innerJoin('identity_providers', 'identity_providers.id', 'user_identities.provider_id')
      .select([
        'identity_providers.name as provider',
        'identity_providers.type',
        'user_identities.subject',
        'user_identities.email',
        'user_identities.created_at',
        'user_identities.last_login_at',
      ])
      .where('user_identities.user_id', '=', userId)
      .orderBy('user_identities.id')
      .execute();
  }

  sessions(userId: number) {
    return this.db
      .selectFrom('auth_sessions')
      .select(['created_at', 'last_used_at', 'revoked_at', 'ip', 'user_agent'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute();
  }

  /** Personal API keys without their secret's hash. */
  apiKeys(userId: number) {
    return this.db
      .selectFrom('api_keys')
      .select([
        'id',
        'name',
        'prefix',
        'models',
        'credit_limit',
        'period',
        'expires_at',
        'ip_allow',
        'rpm',
        'last_used_at',
        'created_at',
        'revoked_at',
      ])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
  }

  /** The person's conversations in id order, a batch at a time. */
  async *conversations(userId: number): AsyncGenerator<ConversationRow> {
    for (let after = ''; ;) {
      const rows = await this.db
        .selectFrom('conversations')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', '>', after)
        .orderBy('id')
        .limit(BATCH)
        .execute();
      yield* rows;
      if (rows.length < BATCH) return;
      after = rows[rows.length - 1]!.id;
    }
  }

  /** Every message of a conversation, every version and branch, oldest first. */
  messages(conversationId: string) {
    return this.db
      .selectFrom('messages')
      .select([
        'id',
        'parent_id',
        'role',
        'content',
        'status',
        'model_name',
        'tokens',
        'error_code',
        'citations',
        'created_at',
      ])
      .where('conversation_id', '=', conversationId)
      .orderBy('seq')
      .execute();
  }

  /** The files the conversation's messages list, in each message's order. */
  messageFiles(conversationId: string) {
    return this.db
      .selectFrom('message_files')
      .innerJoin('messages', 'messages.id', 'message_files.message_id')
      .innerJoin('files', 'files.id', 'message_files.file_id')
      .select([
        'message_files.message_id',
        'files.id',
        'files.original_name',
        'files.stored_name',
        'files.mime',
        'files.kind',
        'files.size',
        'files.user_id',
      ])
      .where('messages.conversation_id', '=', conversationId)
      .orderBy('message_files.message_id')
      .orderBy('message_files.position')
      .execute();
  }

  async knowledgeBaseIds(conversationId: string): Promise<number[]> {
    const rows = await this.db
      .selectFrom('conversation_knowledge_bases')
      .select('knowledge_base_id')
      .where('conversation_id', '=', conversationId)
      .orderBy('knowledge_base_id')
      .execute();
    return rows.map((r) => r.knowledge_base_id);
  }

  draft(conversationId: string) {
    return this.db
      .selectFrom('conversation_drafts')
      .select(['content', 'updated_at'])
      .where('conversation_id', '=', conversationId)
      .executeTakeFirst();
  }

  /** The person's credit transactions, oldest first, a batch at a time. */
  async *ledger(userId: number) {
    for (let after = 0; ;) {
      const rows = await this.db
        .selectFrom('credit_transactions')
        .select(LEDGER_COLUMNS)
        .where('user_id', '=', userId)
        .where('id', '>', after)
        .orderBy('id')
        .limit(BATCH)
        .execute();
      yield* rows;
      if (rows.length < BATCH) return;
      after = rows[rows.length - 1]!.id;
    }
  }

  /**
   * The files the person uploaded (images and documents), a batch at a time; without
   * `includeHidden`, not those the messages of a conversation they deleted while held list.
   */
  async *files(userId: number, includeHidden: boolean): AsyncGenerator<FileRow> {
    for (let after = ''; ;) {
      let query = this.db.selectFrom('files').selectAll().where('user_id', '=', userId).where('id', '>', after);
      if (!includeHidden) {
        query = query.where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('message_files')
                .innerJoin('messages', 'messages.id', 'message_files.message_id')
                .innerJoin('conversations', 'conversations.id', 'messages.conversation_id')
                .select('message_files.file_id')
                .whereRef('message_files.file_id', '=', 'files.id')
                .where('conversations.hidden_at', 'is not', null),
            ),
          ),
        );
      }
      const rows = await query.orderBy('id').limit(BATCH).execute();
      yield* rows;
      if (rows.length < BATCH) return;
      after = rows[rows.length - 1]!.id;
    }
  }

  /** The person's share links with their snapshots; never the token's hash. */
  shareLinks(userId: number) {
    return this.db
      .selectFrom('share_links')
      .select([
        'id',
        'conversation_id',
        'title',
        'model_name',
        'snapshot',
        'is_public',
        'expires_at',
        'revoked_at',
        'visits',
        'created_at',
      ])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
  }

  /** The person's own (personal) prompt templates. */
  promptTemplates(userId: number) {
    return this.db
      .selectFrom('prompt_templates')
      .select(['id', 'title', 'content', 'version', 'created_at', 'updated_at'])
      .where('owner_id', '=', userId)
      .where('scope', '=', 'personal')
      .orderBy('id')
      .execute();
  }

  promptVersions(templateIds: readonly number[]) {
    if (templateIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('prompt_template_versions')
      .select(['template_id', 'version', 'title', 'content', 'edited_at'])
      .where('template_id', 'in', templateIds)
      .orderBy('template_id')
      .orderBy('version')
      .execute();
  }

  /** The person's personal knowledge bases. */
  knowledgeBases(userId: number) {
    return this.db
      .selectFrom('knowledge_bases')
      .select(['id', 'name', 'description', 'created_at', 'updated_at'])
      .where('user_id', '=', userId)
      .where('scope', '=', 'personal')
      .orderBy('id')
      .execute();
  }

  knowledgeDocuments(baseIds: readonly number[]) {
    if (baseIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('knowledge_base_documents')
      .innerJoin('files', 'files.id', 'knowledge_base_documents.file_id')
      .select([
        'knowledge_base_documents.knowledge_base_id',
        'files.id',
        'files.original_name',
        'files.user_id',
        'knowledge_base_documents.created_at',
      ])
      .where('knowledge_base_documents.knowledge_base_id', 'in', baseIds)
      .orderBy('knowledge_base_documents.knowledge_base_id')
      .orderBy('files.id')
      .execute();
  }
}
