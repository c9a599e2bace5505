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
import type { ConversationRow, Database, Db, UserRow } from '../../db/types.js';
import { isUserHeld } from '../legal-holds/legal-holds.repo.js';
import type { Clock } from '../../lib/runtime/clock.js';
import { paginate } from '../../lib/http/envelope.js';
import { AppError, notFound } from '../../lib/http/errors.js';
import type { ModelsService } from '../models/models.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { toCreditsStats } from '../users/user.presenter.js';
import type { UsersRepo } from '../users/users.repo.js';
import { toConversation, toMessage } from './chat.presenter.js';
import type { ConversationKnowledge } from './conversation-knowledge.js';
import type { ConversationsRepo } from './conversations.repo.js';
import type { ImagesService } from './images.service.js';
import type { MessageBranches, MessageNode } from './message-branches.js';
import type { MessageFilesRepo } from './message-files.repo.js';
import { MessageTree } from './message-tree.js';
import type { MessagesRepo } from './messages.repo.js';
import type { TurnAccounting } from './turn-accounting.js';

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
    private readonly branches: MessageBranches,
    /** Refunds the turns a deletion removes that produced nothing and are still unsettled. */
    private readonly accounting: TurnAccounting,
    /**
     * Stops the owner's answers being written in a conversation and waits until they are
     * stored (charged for their text, or refunded). A closed connection no longer stops an
     * answer, so deleting what it is written into must.
     */
    private readonly stopAnswers: (userId: number, conversationId: string) => Promise<unknown>,
    /** The knowledge bases each conversation searches. */
    private readonly knowledge: ConversationKnowledge,
  ) {}

  /**
   * Before a deletion: stops the conversation's answers still being written when the
   * deletion takes one of them (`doomed`: the ids it removes; unset, all of them).
   */
  private async stopAnswersIn(userId: number, id: string, doomed?: () => Promise<string[]>) {
    const streaming = await this.messages.streamingIn(id, this.clock.now().toISOString());
    if (streaming.length === 0) return;
    const removed = doomed ? await doomed() : streaming;
    if (removed.some((m) => streaming.includes(m))) await this.stopAnswers(userId, id);
  }

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
    const knowledgeBaseIds = await this.knowledge.checked(user.id, body.knowledge_base_ids ?? []);
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
      active_message_id: null,
      hidden_at: null,
    };
    if (!(await this.repo.insertWithinQuota(row, QUOTAS.conversationsPerUser))) {
      throw new AppError('CONVERSATION_LIMIT_REACHED', { max: QUOTAS.conversationsPerUser });
    }
    if (knowledgeBaseIds.length > 0) {
      try {
        await this.knowledge.save(row.id, knowledgeBaseIds);
      } catch (err) {
        // A knowledge base deleted since the check: the request fails whole, leaving no
        // conversation behind (it has no message yet, so nothing else goes with it).
        await this.repo.delete(row.id, user.id);
        throw err;
      }
    }
    return { ...toConversation(row), knowledge_base_ids: knowledgeBaseIds };
  }

  /** One conversation with the user's saved draft. */
  async get(userId: number, id: string): Promise<ConversationDetail> {
    const c = await this.owned(userId, id);
    const [draft, modelDisplayName] = await Promise.all([
      this.repo.findDraft(id),
      this.models.displayName(c.model_name),
    ]);
    const [conversation] = await this.knowledge.attach([toConversation(c)]);
    return { ...conversation!, draft: draft ?? null, model_display_name: modelDisplayName };
  }

  /** Changes settings; a new model must be one the user may use. */
  async update(user: UserRow, id: string, body: UpdateConversationBody): Promise<Conversation> {
    await this.owned(user.id, id);
    if (body.model_name !== undefined) await this.models.findUsable(body.model_name, user.group_id);
    if (body.knowledge_base_ids !== undefined)
      await this.knowledge.save(id, await this.knowledge.checked(user.id, body.knowledge_base_ids));
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
    const [conversation] = await this.knowledge.attach([toConversation(await this.owned(user.id, id))]);
    return conversation!;
  }

  /**
   * Runs a deletion of messages of one conversation in a transaction; afterwards the
   * images no message lists any more are deleted (rows in the transaction, bytes after
   * it committed). Images the conversation's messages used before are the candidates,
   * so an image another message still lists stays. With `keepImages` they stay as
   * unattached uploads (for sending again), which the hourly housekeeping removes a day
   * after their upload.
   *
   * `work` calls `refundRemoved` (with the answers it removes; none named, all of the
   * conversation's) before removing rows: a turn still unsettled with no text, whose
   * answer did not stop in time (its instance gone or stuck), is refunded rather than
   * deleted with its charge (see `TurnAccounting.refundRemoved`).
   */
  private async deletingMessages<T>(
    userId: number,
    conversationId: string,
    keepImages: boolean,
    work: (trx: Transaction<Database>, refundRemoved: (answerIds?: readonly string[]) => Promise<number>) => Promise<T>,
  ): Promise<T> {
    // Read first: the transaction must not wait for another query.
    const timeZone = await this.accounting.timeZone();
    const now = this.clock.now().toISOString();
    const { result, released } = await this.db.transaction().execute(async (trx) => {
      const candidates = keepImages ? [] : await this.messageFiles.fileIdsOfConversation(trx, conversationId);
      const result = await work(trx, (answerIds) =>
        this.accounting.refundRemoved(trx, { userId, conversationId, answerIds, now, timeZone }),
      );
      return { result, released: await this.messageFiles.releaseUnused(trx, candidates) };
    });
    await this.images.removeBlobs(released);
    return result;
  }

  /**
   * Deletes the conversation with its messages, draft and the images only its messages used.
   * Under legal hold it is hidden from its owner instead, everything kept.
   */
  async remove(userId: number, id: string): Promise<{ conversationId: string; deleted: true }> {
    await this.owned(userId, id);
    await this.stopAnswersIn(userId, id);
    const now = this.clock.now().toISOString();
    await this.deletingMessages(userId, id, false, async (trx, refundRemoved) => {
      // Asked in the deleting transaction, so a hold placed a moment before is honoured.
      if (await isUserHeld(trx, userId)) {
        if (!(await this.repo.hide(trx, id, userId, now))) throw notFound();
        return;
      }
      await refundRemoved();
      if (!(await this.repo.delete(id, userId, trx))) throw notFound();
    });
    return { conversationId: id, deleted: true };
  }

  /** One page of the user's conversations, by priority then most recent activity. */
  async list(userId: number, page: number, limit: number): Promise<{ items: Conversation[]; pagination: Pagination }> {
    const { rows, total } = await this.repo.page(userId, page, limit);
    return { items: await this.knowledge.attach(rows.map(toConversation)), pagination: paginate(page, limit, total) };
  }

  /**
   * The branch shown, first message first, each message with its versions
   * (`sibling_ids`); the other versions are reached by showing them (`showVersion`).
   */
  async listMessages(userId: number, id: string): Promise<Message[]> {
    const c = await this.owned(userId, id);
    const imageUrl = this.images.urls.forOwner(userId);
    const tree = new MessageTree(await this.messages.listFor(id));
    return tree.shownBranch(c.active_message_id).map((m) => toMessage(m, imageUrl, tree.siblingIds(m.id)));
  }

  /**
   * Shows the branch of one version (a message of this conversation; another id is not
   * found): it and its newest descendants, remembered for every device. Answers that branch.
   */
  async showVersion(userId: number, id: string, messageId: string): Promise<Message[]> {
    await this.owned(userId, id);
    if (!(await this.messages.findOne(id, messageId))) throw notFound();
    await this.repo.setActive(this.db, id, messageId);
    return this.listMessages(userId, id);
  }

  /**
   * Deletes a version: a message that has siblings goes with everything below it; an
   * answer whose question has other versions takes that question's subtree. A turn
   * without versions (an answer and its question, or a question left unanswered) goes on
   * its own, as before versions existed: what followed it moves up to its parent, so
   * deleting a turn in the middle keeps the rest. An answered question without versions
   * is not deleted alone (404: delete its answer). If the version shown went, its
   * parent's branch is shown. The spent credits stay spent.
   */
  async deletePair(
    userId: number,
    id: string,
    messageId: string,
    opts: { keepImages?: boolean } = {},
  ): Promise<{ deletedUserMessageId: string; deletedAiMessageId: string; deleted_ids: string[] }> {
    const c = await this.owned(userId, id);
    await this.stopAnswersIn(userId, id, async () => deletionOf(await this.branches.tree(id), messageId)?.ids ?? []);
    const now = this.clock.now().toISOString();
    return this.deletingMessages(userId, id, opts.keepImages === true, async (trx, refundRemoved) => {
      await refuseWhileHeld(trx, userId);
      const tree = await this.branches.tree(id, trx);
      const plan = deletionOf(tree, messageId);
      if (!plan) throw notFound();
      await refundRemoved(plan.ids);
      if (plan.spliced) await this.messages.tree.reparent(trx, id, plan.spliced.from, plan.spliced.to);
      const removed = await this.messages.deleteIds(trx, id, plan.ids);
      await this.repo.removeMessages(trx, id, removed, now);
      if (c.active_message_id && plan.ids.includes(c.active_message_id)) {
        await this.repo.setActive(trx, id, plan.parentId);
      }
      return {
        deletedUserMessageId: plan.questionId,
        deletedAiMessageId: plan.answerId,
        deleted_ids: plan.ids,
      };
    });
  }

  /** Removes every message; message count and token total start again from zero. */
  async clear(userId: number, id: string): Promise<{ conversationId: string; cleared: true }> {
    await this.owned(userId, id);
    await this.stopAnswersIn(userId, id);
    const now = this.clock.now().toISOString();
    await this.deletingMessages(userId, id, false, async (trx, refundRemoved) => {
      await refuseWhileHeld(trx, userId);
      await refundRemoved();
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

/**
 * Messages of a held user are preserved: there is no hiding a single message, so deleting
 * or clearing them is refused (the whole conversation can still be deleted, which hides it).
 */
async function refuseWhileHeld(trx: Db, userId: number): Promise<void> {
  if (await isUserHeld(trx, userId)) throw new AppError('CONTENT_ON_HOLD');
}

/**
 * Which messages a deletion of `messageId` removes (see `deletePair`), and the children
 * that move up to `to` when a turn without versions is taken out of the middle.
 */
function deletionOf(tree: MessageTree<MessageNode>, messageId: string) {
  const target = tree.get(messageId);
  if (!target) return undefined;
  const versions = (m: MessageNode) => tree.siblingIds(m.id).length > 1;
  const parentOf = (m: MessageNode) => tree.parentOf(m.id);
  const subtree = (m: MessageNode) => ({ root: m, ids: tree.subtree(m.id), spliced: undefined });
  const question = target.role === 'assistant' ? tree.get(parentOf(target) ?? '') : target;
  let plan: { root: MessageNode; ids: string[]; spliced?: { from: string[]; to: string | null } };
  if (versions(target)) plan = subtree(target);
  else if (target.role === 'assistant' && question?.role === 'user' && versions(question)) plan = subtree(question);
  else if (target.role === 'assistant') {
    const pair: MessageNode[] = question?.role === 'user' ? [question, target] : [target];
    plan = {
      root: pair[0] as MessageNode,
      ids: pair.map((m) => m.id),
      spliced: { from: [target.id], to: parentOf(pair[0] as MessageNode) },
    };
  } else if (target.status === 'unanswered' || tree.childrenOf(target.id).every((m) => m.role === 'user')) {
    plan = { root: target, ids: [target.id], spliced: { from: [target.id], to: parentOf(target) } };
  } else return undefined;
  return {
    ids: plan.ids,
    spliced: plan.spliced,
    parentId: parentOf(plan.root),
    questionId: question?.role === 'user' && plan.ids.includes(question.id) ? question.id : '',
    answerId: target.role === 'assistant' ? target.id : '',
  };
}
