import type { Message, MessageFile } from '@aiplatform/contracts';
import type { StateSnapshot } from 'react-virtuoso';
import type { LiveText } from './live-text';

/** A message as the screen holds it: `temp` until the server names it, `streaming` while it grows. */
export interface ChatMessage extends Message {
  temp?: boolean;
  streaming?: boolean;
  /** While it streams on this screen: the text so far, which `content` only gets at the end. */
  live?: LiveText;
  /**
   * An answer that never came (an error or a stop before the first word; the turn was
   * refunded): why, shown in its place, and the question as sent, for "retry".
   */
  failure?: { message: string; questionId: string; content: string; images: MessageFile[] };
  /** How the answer ended, when it streamed on this screen (`length`: cut off by the limit). */
  finishReason?: 'stop' | 'length' | 'stopped';
}

/** Where a message list was scrolled to, so it can be restored when its conversation reopens. */
export interface ScrollMemo {
  atBottom: boolean;
  /** The list's measured sizes and scroll offset when it last came to rest. */
  snapshot: StateSnapshot | null;
}

/** What an answer or question offers besides copy and delete. */
export interface AnswerRework {
  /** Answers again, in place, a question whose answer never came (a billed turn). */
  retry(failed: ChatMessage): void;
  /** A new version of the answer to the same question; billed as a new turn, the old one kept. */
  regenerate(answer: ChatMessage): void;
  /** An answer cut off by the length limit: asks the model to go on, as a new turn. */
  continueAnswer(): void;
  /** Sends the edited text as a new version of the question (the old one and its answers are kept). */
  editQuestion(question: ChatMessage, text: string): void;
  /** Shows the branch of another version of a message; resolves whether it is shown. */
  showVersion(messageId: string): Promise<boolean>;
}
