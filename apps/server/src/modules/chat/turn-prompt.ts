import { LIMITS } from '@aiplatform/contracts';
import type { ModelMessage } from 'ai';
import { type ImageLoader, buildPrompt } from '../../ai/prompt.js';

/** A stored image as a turn's prompt needs it: where to read it and how big it is (known without reading it). */
export interface PromptImage {
  storedName: string;
  mime: string;
  size: number;
}

/** A message of the prompt: the history along the branch, then the question itself. */
export interface TurnMessage {
  role: 'user' | 'assistant';
  content: string;
  images: readonly PromptImage[];
}

/**
 * Whether building the prompt reads files from disk: only images sent to a model that
 * reads them are. A turn whose prompt reads nothing may ask for its answer before its
 * credits are reserved; any other waits for the reservation, so a send that cannot be
 * paid costs no disk reads.
 */
export function readsImages(messages: readonly TurnMessage[], vision: boolean): boolean {
  return vision && messages.some((m) => m.images.length > 0);
}

/**
 * The images a turn sends, at most `budget` bytes of them (`LIMITS.imageBytesPerTurn`):
 * the question's own always go (at most four uploads, chosen for this question); earlier
 * questions' images go newest question first, each question's images together, while the
 * total stays within the budget. From the first earlier question whose images do not fit,
 * older images are left out; their text still goes.
 */
export function withinImageBudget(messages: readonly TurnMessage[], budget: number): TurnMessage[] {
  const out = [...messages];
  const last = messages.length - 1;
  let spent = 0;
  let full = false;
  for (let i = last; i >= 0; i -= 1) {
    const m = messages[i] as TurnMessage;
    if (m.images.length === 0) continue;
    const bytes = m.images.reduce((sum, image) => sum + image.size, 0);
    if (i !== last && (full || spent + bytes > budget)) {
      full = true;
      out[i] = { ...m, images: [] };
      continue;
    }
    spent += bytes;
  }
  return out;
}

/**
 * The SDK's messages for a turn. For a model that reads images, those within the turn's
 * budget are read from disk one after another (a send holds at most one turn's images);
 * for any other, nothing is read.
 */
export function buildTurnPrompt(
  messages: readonly TurnMessage[],
  opts: { vision: boolean; loadImage: ImageLoader; budget?: number },
): Promise<{ messages: ModelMessage[]; text: string }> {
  const sent = opts.vision ? withinImageBudget(messages, opts.budget ?? LIMITS.imageBytesPerTurn) : messages;
  return buildPrompt([...sent], opts);
}
