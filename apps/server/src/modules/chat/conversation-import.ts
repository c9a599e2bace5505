import crypto from 'node:crypto';
import { type Conversation, LIMITS, QUOTAS } from '@aiplatform/contracts';
import type { Kysely } from 'kysely';
import type { ConversationRow, Database, UserRow } from '../../db/types.js';
import { AppError } from '../../lib/http/errors.js';
import type { Clock } from '../../lib/runtime/clock.js';
import type { ModelsService } from '../models/models.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { toConversation } from './chat.presenter.js';
import type { ConversationsRepo } from './conversations.repo.js';
import { indexMessage } from './message-search.repo.js';
import type { MessagesRepo } from './messages.repo.js';

/** A message to copy in: text only, in the order shown. */
export interface ImportedMessage {
  role: 'user' | 'assistant';
  content: string;
  /** The model that wrote an answer (kept as written, even when it is gone). */
  model_name: string | null;
  stopped: boolean;
  /** Citations as stored (JSON), or null. */
  citations: string | null;
}

/**
 * Makes a new conversation of a user from messages written elsewhere (a share link's
 * snapshot): one branch, nothing charged, counted against the user's conversation quota
 * like any other, and searchable like messages sent here.
 */
export class ConversationImport {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly repo: ConversationsRepo,
    private readonly messages: MessagesRepo,
    private readonly models: ModelsService,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
  ) {}

  /**
   * The model the copy goes on: `preferred` when the user's group may use it, else the
   * site's default model, else the first model the group may use; none → MODEL_UNAVAILABLE.
   */
  async modelFor(user: UserRow, preferred: string): Promise<string> {
    const usable = async (name: string) =>
      this.models.findUsable(name, user.group_id).then(
        (m) => m.name,
        () => null,
      );
    const chosen =
      (await usable(preferred)) ??
      (await usable((await this.settings.getSettings()).ai.default_model)) ??
      (await this.models.listForUser(user.group_id))[0]?.name;
    if (!chosen) throw new AppError('MODEL_UNAVAILABLE');
    return chosen;
  }

  /** Creates the conversation with `messages` as its one branch, the last one shown. */
  async importConversation(
    user: UserRow,
    input: { title: string; preferredModel: string; messages: readonly ImportedMessage[] },
  ): Promise<Conversation> {
    const modelName = await this.modelFor(user, input.preferredModel);
    const now = this.clock.now();
    const ids = input.messages.map(() => crypto.randomUUID());
    const row: ConversationRow = {
      id: crypto.randomUUID(),
      user_id: user.id,
      title: input.title.slice(0, LIMITS.conversationTitleMax),
      model_name: modelName,
      system_prompt: '',
      is_pinned: 0,
      context_length: LIMITS.contextLengthDefault,
      ai_temperature: (await this.settings.getSettings()).ai.temperature,
      priority: 0,
      message_count: ids.length,
      total_tokens: 0,
      last_message_at: ids.length > 0 ? now.toISOString() : null,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      active_message_id: ids.at(-1) ?? null,
      hidden_at: null,
    };
    if (!(await this.repo.insertWithinQuota(row, QUOTAS.conversationsPerUser))) {
      throw new AppError('CONVERSATION_LIMIT_REACHED', { max: QUOTAS.conversationsPerUser });
    }
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const [i, m] of input.messages.entries()) {
          // One millisecond apart, so the copy keeps its order wherever time orders messages.
          const createdAt = new Date(now.getTime() + i).toISOString();
          await this.messages.insertOne(trx, {
            id: ids[i]!,
            conversation_id: row.id,
            role: m.role,
            content: m.content,
            parent_id: i === 0 ? null : ids[i - 1]!,
            tokens: 0,
            model_name: m.role === 'assistant' ? m.model_name : null,
            status: m.stopped ? 'stopped' : 'complete',
            created_at: createdAt,
            citations: m.citations,
          });
          await indexMessage(trx, ids[i]!, m.content, true);
        }
      });
    } catch (err) {
      // The messages could not be written: no empty conversation is left behind.
      await this.repo.delete(row.id, user.id);
      throw err;
    }
    return toConversation(row);
  }
}
