import type { ChatMessage } from './chat-message';

/**
 * Whether "continue" is offered under an answer: it ended before the model was done —
 * cut off by the length limit, stopped, or broken off after some text (interrupted).
 * Continuing is an ordinary turn asking the model to go on, billed like any other.
 */
export function canContinue(message: ChatMessage): boolean {
  if (message.role !== 'assistant' || message.failure || message.streaming || !message.content) return false;
  return message.finishReason === 'length' || message.status === 'stopped' || message.status === 'error';
}
