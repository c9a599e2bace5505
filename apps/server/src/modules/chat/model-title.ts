import type { LanguageModel } from 'ai';
import { generateAnswer } from '../../ai/upstream.js';
import type { ConversationsRepo } from './conversations.repo.js';
import { plainText } from './auto-title.js';

/** Longest title the model may write, in characters. */
export const MODEL_TITLE_CHARS = 50;
/** How long the title may take; a slower model leaves the title taken from the question. */
const TITLE_TIMEOUT_MS = 15_000;
/** How long the end of an answer may wait for a title still being written. */
export const TITLE_WAIT_MS = 2_000;

const INSTRUCTION =
  'Write a short title (at most 8 words) for a conversation that starts with the message below. ' +
  'Use the language of the message. Answer with the title only: no quotes, no punctuation at the end.';

/** The model's reply as a sidebar title: one line of plain text, quotes and a trailing stop removed. */
export function cleanModelTitle(reply: string): string {
  const line = plainText(reply.split('\n').find((l) => l.trim()) ?? '')
    .replace(/^(title|标题)\s*[:：]\s*/i, '')
    .replace(/^["'“”‘’「」《》]+|["'“”‘’「」《》.。!！]+$/g, '')
    .trim();
  return Array.from(line).slice(0, MODEL_TITLE_CHARS).join('');
}

/**
 * With the "model writes titles" setting on, a conversation's first question is also sent,
 * alone, to its model with a request for a title, while the answer streams. The title
 * replaces the one taken from the question only if that one is still in place (a rename
 * meanwhile wins). The call is not charged: it is the platform's bookkeeping, not a turn.
 * Any failure leaves the question's title; it is never an error for the person chatting.
 */
export class ModelTitles {
  constructor(private readonly conversations: ConversationsRepo) {}

  async start(job: {
    model: LanguageModel;
    conversationId: string;
    question: string;
    questionTitle: string;
  }): Promise<void> {
    try {
      const { end, text } = await generateAnswer({
        model: job.model,
        system: INSTRUCTION,
        messages: [{ role: 'user', content: job.question }],
        temperature: 0,
        signal: new AbortController().signal,
        firstByteTimeoutMs: TITLE_TIMEOUT_MS,
        totalTimeoutMs: TITLE_TIMEOUT_MS,
      });
      const title = end.kind === 'finished' ? cleanModelTitle(text) : '';
      if (title) await this.conversations.replaceTitle(job.conversationId, job.questionTitle, title);
    } catch {
      // The title taken from the question stays.
    }
  }
}

/** Waits for `work`, but no longer than `ms`; never rejects. */
export function settleWithin(work: Promise<void> | undefined, ms: number): Promise<void> {
  if (!work) return Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([work.catch(() => undefined), limit]).finally(() => clearTimeout(timer));
}
