import { AppError } from '../../lib/errors.js';
import type { MessagesRepo } from './messages.repo.js';

/**
 * A closed connection does not stop an answer, so the answers one user has being written
 * are capped (`max`): a send beyond it is refused with TOO_MANY_ANSWERS before anything is
 * charged or stored. Sends arriving at the same instant may pass together; the cap bounds
 * what is left running, not a burst (the rate limits bound bursts).
 */
export async function refuseBeyondAnswerCap(
  messages: MessagesRepo,
  userId: number,
  now: string,
  max: number,
): Promise<void> {
  const writing = await messages.countStreamingOfUser(userId, now);
  if (writing >= max) throw new AppError('TOO_MANY_ANSWERS', { max });
}
