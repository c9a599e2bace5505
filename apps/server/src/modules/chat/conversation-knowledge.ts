import type { Conversation } from '@aiplatform/contracts';
import { notFound } from '../../lib/http/errors.js';
import type { ConversationKnowledgeRepo } from './conversation-knowledge.repo.js';

/**
 * Which knowledge bases a user may read, declared on the chat's side: knowledge bases live
 * in the documents area, which builds on the chat, so the composition root hands the
 * implementation in.
 */
export interface KnowledgeBaseReaders {
  readableKnowledgeBaseIds(userId: number, ids: readonly number[]): Promise<number[]>;
}

/** The knowledge bases a conversation searches: checked when set, shown on the conversation. */
export class ConversationKnowledge {
  constructor(
    private readonly repo: ConversationKnowledgeRepo,
    private readonly readers: KnowledgeBaseReaders | undefined,
  ) {}

  /**
   * The ids, without repeats, when the user may read every one; an unknown id or one out of
   * the user's sight is not found (nothing tells the two apart).
   */
  async checked(userId: number, ids: readonly number[]): Promise<number[]> {
    const unique = [...new Set(ids)].sort((a, b) => a - b);
    if (unique.length === 0) return [];
    const readable = this.readers ? await this.readers.readableKnowledgeBaseIds(userId, unique) : [];
    if (readable.length !== unique.length) throw notFound();
    return unique;
  }

  /**
   * Replaces the conversation's knowledge bases (ids already checked); one deleted since
   * the check is not found, as it would have been a moment earlier.
   */
  async save(conversationId: string, ids: readonly number[]): Promise<void> {
    if (!(await this.repo.replace(conversationId, ids))) throw notFound();
  }

  /** The conversations with their `knowledge_base_ids`. */
  async attach<C extends Conversation>(conversations: C[]): Promise<C[]> {
    const ids = await this.repo.idsOf(conversations.map((c) => c.id));
    return conversations.map((c) => ({ ...c, knowledge_base_ids: ids.get(c.id) ?? [] }));
  }
}
