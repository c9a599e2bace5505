import type { ChatMessage } from './chat-sessions';

/**
 * The stored message a new question follows: the last one on screen that the server holds.
 * Temporary messages (the turn being sent, "no answer" marks) and a failed answer shown
 * until the next read (the server removed it when it refunded the turn) are not stored;
 * null when nothing stored is shown (a new chat's first question).
 */
export function lastShownId(messages: readonly ChatMessage[]): string | null {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const m = messages[i];
    if (m && !m.temp && !m.failure) return m.id;
  }
  return null;
}
