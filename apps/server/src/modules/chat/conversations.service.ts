import crypto from 'node:crypto';
import {
  type Conversation,
  type ConversationDetail,
  type CreateConversationBody,
  type Draft,
  LIMITS,
  type Message,
  type Pagination,
  QUOTAS,
  type UpdateConversationBody,
} from '@aiplatform/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { ConversationRow, Database, UserRow } from '../../db/types.js';
import type { Clock } from '../../lib/clock.js';
import { paginate } from '../../lib/envelope.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { ModelsService } from '../models/models.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { toCreditsStats } from '../users/user.presenter.js';
import type { UsersRepo } from '../users/users.repo.js';
import { toConversation, toMessage } from './chat.presenter.js';
import type { ConversationsRepo } from './conversations.repo.js';
import type { ImagesService } from './images.service.js';
import type { MessageFilesRepo } from './message-files.repo.js';
import type { MessagesRepo } from './messages.repo.js';

const bool = (v: boolean | undefined) => (v === undefined ? undefined : v ? 1 : 0);

/** A user's conversations, their messages and drafts. Another user's conversation is simply not found. */
export class ConversationsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly repo: ConversationsRepo,
    private readonly messages: MessagesRepo,
    private readonly models: ModelsService,
    private readonly settings: SettingsService,
    private readonly users: UsersRepo,
    private readonly clock: Clock,
    private readonly messageFiles: MessageFilesRepo,
    private readonly images: ImagesService,
  ) {}

  private async owned(userId: number, id: string): Promise<ConversationRow> {
    const c = await this.repo.findOwned(id, userId);
    if (!c) throw notFound();
    return c;
  }

  /**
   * Creates a conversation on a model the user may use; unset fields take the defaults.
   * An account keeps at most QUOTAS.conversationsPerUser of them.
   */
  async create(user: UserRow, body: CreateConversationBody): Promise<Conversation> {
    const model = await this.models.findUsable(body.model_name, user.group_id);
    const now = this.clock.now().toISOString();
    const row: ConversationRow = {
      id: crypto.randomUUID(),
      user_id: user.id,
      title: body.title ?? '',
      model_name: model.name,
      system_prompt: body.system_prompt ?? '',
      is_pinned: body.is_pinned ? 1 : 0,
      context_length: body.context_length ?? LIMITS.contextLengthDefault,
      ai_temperature: body.ai_temperature ?? (await this.settings.getSettings()).ai.temperature,
      priority: body.priority ?? 0,
      message_count: 0,
      total_tokens: 0,
      last_message_at: null,
      created_at: now,
      updated_at: now,
    };
    if (!(await this.repo.insertWithinQuota(row, QUOTAS.conversationsPerUser))) {
      throw new AppError('CONVERSATION_LIMIT_REACHED', { max: QUOTAS.conversationsPerUser });
    }
    return toConversation(row);
  }

  /** One conversation with the user's saved draft. */
  async get(userId: number, id: string): Promise<ConversationDetail> {
    const c = await this.owned(userId, id);
    const [draft, modelDisplayName] = await Promise.all([
      this.repo.findDraft(id),
      this.models.displayName(c.model_name),
    ]);
    return { ...toConversation(c), draft: draft ?? null, model_display_name: modelDisplayName };
  }

  /** Changes settings; a new model must be one the user may use. */
  async update(user: UserRow, id: string, body: UpdateConversationBody): Promise<Conversation> {
    await this.owned(user.id, id);
    if (body.model_name !== undefined) await this.models.findUsable(body.model_name, user.group_id);
    const patch = {
      title: body.title,
      model_name: body.model_name,
      system_prompt: body.system_prompt,
      context_length: body.context_length,
      ai_temperature: body.ai_temperature,
      priority: body.priority,
      is_pinned: bool(body.is_pinned),
    };
    const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
    await this.repo.update(id, user.id, { ...defined, updated_at: this.clock.now().toISOString() });
    return toConversation(await this.owned(user.id, id));
  }

  /**
   * Runs a deletion of messages of one conversation in a transaction; afterwards the
   * images no message lists any more are deleted (rows in the transaction, bytes after
   * it committed). Images the conversation's messages used before are the candidates,
   * so an image another message still lists stays. With `keepImages` they stay as
   * unattached uploads (for sending again), which the hourly housekeeping removes a day
   * after their upload.
   */
  private async deletingMessages<T>(
    conversationId: string,
    keepImages: boolean,
    work: (trx: Transaction<Database>) => Promise<T>,
  ): Promise<T> {
    const { result, released } = await this.db.transaction().execute(async (trx) => {
      const candidates = keepImages ? [] : await this.messageFiles.fileIdsOfConversation(trx, conversationId);
      const result = await work(trx);
      return { result, released: await this.messageFiles.releaseUnused(trx, candidates) };
    });
    await this.images.removeBlobs(released);
    return result;
  }

  /** Deletes the conversation with its messages, draft and the images only its messages used. */
  async remove(userId: number, id: string): Promise<{ conversationId: string; deleted: true }> {
    await this.deletingMessages(id, false, async (trx) => {
      if (!(await this.repo.delete(id, userId, trx))) throw notFound();
    });
    return { conversationId: id, deleted: true };
  }

  /** One page of the user's conversations, by priority then most recent activity. */
  async list(userId: number, page: number, limit: number): Promise<{ items: Conversation[]; pagination: Pagination }> {
    const { rows, total } = await this.repo.page(userId, page, limit);
    return { items: rows.map(toConversation), pagination: paginate(page, limit, total) };
  }

  /** Every message, oldest first. */
  async listMessages(userId: number, id: string): Promise<Message[]> {
    await this.owned(userId, id);
    const imageUrl = this.images.urls.forOwner(userId);
    return (await this.messages.listFor(id)).map((m) => toMessage(m, imageUrl));
  }

  /**
   * Deletes an answer and the question it answers (answers go in pairs with their
   * question), or a question left unanswered on its own. The spent credits stay spent.
   */
  async deletePair(
    userId: number,
    id: string,
    messageId: string,
    opts: { keepImages?: boolean } = {},
  ): Promise<{ deletedUserMessageId: string; deletedAiMessageId: string }> {
    await this.owned(userId, id);
    const now = this.clock.now().toISOString();
    return this.deletingMessages(id, opts.keepImages === true, async (trx) => {
      const answer = await this.messages.findOne(id, messageId, trx);
      // A question left unanswered has no pair: it goes alone.
      if (answer?.role === 'user' && answer.status === 'unanswered') {
        await this.repo.removeMessages(trx, id, await this.messages.deleteIds(trx, id, [answer.id]), now);
        return { deletedUserMessageId: answer.id, deletedAiMessageId: '' };
      }
      if (!answer || answer.role !== 'assistant') throw notFound();
      const questionId = await this.messages.questionOf(trx, answer);
      const removed = await this.messages.deleteIds(trx, id, questionId ? [questionId, answer.id] : [answer.id]);
      await this.repo.removeMessages(trx, id, removed, now);
      return { deletedUserMessageId: questionId ?? '', deletedAiMessageId: answer.id };
    });
  }

  /** Removes every message; message count and token total start again from zero. */
  async clear(userId: number, id: string): Promise<{ conversationId: string; cleared: true }> {
    await this.owned(userId, id);
    const now = this.clock.now().toISOString();
    await this.deletingMessages(id, false, async (trx) => {
      await this.messages.deleteAll(trx, id);
      await this.repo.resetCounters(trx, id, now);
    });
    return { conversationId: id, cleared: true };
  }

  /** The saved draft, or null. */
  async getDraft(userId: number, id: string): Promise<Draft | null> {
    await this.owned(userId, id);
    return (await this.repo.findDraft(id)) ?? null;
  }

  /** Saves the unsent text; saving an empty text removes the draft. */
  async saveDraft(userId: number, id: string, content: string): Promise<{ saved: true }> {
    await this.owned(userId, id);
    if (content === '') await this.repo.deleteDraft(id);
    else await this.repo.saveDraft(id, content, this.clock.now().toISOString());
    return { saved: true };
  }

  /** Removes the draft (the client sent or discarded it). */
  async deleteDraft(userId: number, id: string): Promise<{ deleted: true }> {
    await this.owned(userId, id);
    await this.repo.deleteDraft(id);
    return { deleted: true };
  }

  /** The chat screen's balance line. */
  async credits(userId: number) {
    const user = await this.users.findWithGroupById(userId);
    if (!user) throw notFound();
    const s = toCreditsStats(user, this.clock.now());
    return {
      credits_stats: {
        quota: s.quota,
        used: s.used,
        remaining: s.remaining,
        isExpired: s.isExpired,
        expireAt: s.expireAt,
      },
    };
  }
}
