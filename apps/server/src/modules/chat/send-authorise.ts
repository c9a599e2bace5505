import type { ConversationRow, UserRow } from '../../db/types.js';
import type { Clock } from '../../lib/runtime/clock.js';
import { AppError, notFound } from '../../lib/http/errors.js';
import type { ConversationsRepo } from './conversations.repo.js';
import type { MessagesRepo } from './messages.repo.js';

/**
 * The first step of a send: who may send into this conversation (its owner only) and
 * whether they may start one more answer. Both refuse before anything is charged or stored.
 */
export class SendAuthorisation {
  constructor(
    private readonly conversations: ConversationsRepo,
    private readonly messages: MessagesRepo,
    private readonly clock: Clock,
    /** Answers one user may have being written at once (`QUOTAS.answersInProgressPerUser` by default). */
    private readonly answersInProgressPerUser: number,
  ) {}

  /** The sender's own conversation; anyone else's, like one that does not exist, is not found (404). */
  async conversation(user: UserRow, conversationId: string): Promise<ConversationRow> {
    const conversation = await this.conversations.findOwned(conversationId, user.id);
    if (!conversation) throw notFound();
    return conversation;
  }

  /**
   * A closed connection does not stop an answer, so the answers one user has being written
   * are capped: a send beyond it is refused with TOO_MANY_ANSWERS. Sends arriving at the
   * same instant may pass together; the cap bounds what is left running, not a burst (the
   * rate limits bound bursts).
   */
  async answerCap(user: UserRow): Promise<void> {
    const max = this.answersInProgressPerUser;
    const writing = await this.messages.countStreamingOfUser(user.id, this.clock.now().toISOString());
    if (writing >= max) throw new AppError('TOO_MANY_ANSWERS', { max });
  }
}
