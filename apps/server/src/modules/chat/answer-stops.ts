import type { ChangeBus } from '../../lib/data/change-bus.js';
import type { Clock } from '../../lib/runtime/clock.js';
import { notFound } from '../../lib/http/errors.js';
import type { ActiveAnswers } from './active-answers.js';
import type { ConversationsRepo } from './conversations.repo.js';
import type { MessagesRepo } from './messages.repo.js';

/** How long a stop call waits for the stopped answers to be stored (another instance holds them, perhaps). */
const STOP_WAIT_MS = 5_000;

/** The change-bus event asking whichever instance writes in a conversation to stop. */
const stopEvent = (conversationId: string) => `chat.stop:${conversationId}`;

/**
 * Stopping answers. A closed connection stops nothing, so a stop is a request of its own:
 * it may arrive at any instance while one instance writes the answer, so it travels on the
 * change bus, and the caller waits until the database shows the stopped answers stored.
 */
export class AnswerStops {
  constructor(
    private readonly conversations: ConversationsRepo,
    private readonly messages: MessagesRepo,
    private readonly bus: ChangeBus,
    /** This process's answers in progress. */
    private readonly active: ActiveAnswers,
    private readonly clock: Clock,
  ) {}

  /** Aborts `ac` when a stop for the conversation arrives, from any instance; returns the unsubscribe. */
  listen(conversationId: string, ac: AbortController): () => void {
    return this.bus.subscribe(stopEvent(conversationId), () => ac.abort('client'));
  }

  /**
   * POST /chat/conversations/{id}/stop: stops the owner's answers in progress in that
   * conversation, on whichever instance writes them (partial text kept and charged, nothing
   * yet: refunded), and answers once they are stored (or after a few seconds at most).
   * Stopping when nothing runs is not an error.
   */
  async stop(userId: number, conversationId: string): Promise<{ stopped: number }> {
    if (!(await this.conversations.findOwned(conversationId, userId))) throw notFound();
    const running = await this.messages.streamingIn(conversationId, this.clock.now().toISOString());
    if (running.length === 0) return { stopped: 0 };
    await this.bus.publish(stopEvent(conversationId));
    // Those held here are awaited directly; those held elsewhere are seen settled in the database.
    await this.active.stopConversation(conversationId);
    const until = Date.now() + STOP_WAIT_MS;
    while ((await this.messages.countStreaming(running)) > 0 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
    }
    return { stopped: running.length };
  }
}
