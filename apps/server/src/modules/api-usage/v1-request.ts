import { z } from 'zod';
import { badRequest } from './v1-errors.js';

const message = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string() })), z.null()]).optional(),
});

/**
 * What `/v1/chat/completions` checks of a body: the model, messages with known roles, and
 * the stream switches. Everything else (tools, response_format, sampling settings…) goes to
 * an OpenAI-compatible upstream as written, which answers for it.
 */
const chatBody = z.looseObject({
  model: z.string().min(1).max(200),
  messages: z.array(message).min(1),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  max_tokens: z.number().int().positive().nullish(),
});
export type ChatBody = z.infer<typeof chatBody>;

const embeddingsBody = z.looseObject({
  model: z.string().min(1).max(200),
  input: z.union([
    z.string().min(1),
    z.array(z.string().min(1)).min(1).max(2048),
    z.array(z.number().int()).min(1),
    z.array(z.array(z.number().int()).min(1)).min(1).max(2048),
  ]),
});
export type EmbeddingsBody = z.infer<typeof embeddingsBody>;

function parsed<T>(schema: z.ZodType<T>, body: unknown): T {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('server.v1.bodyNotObject');
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  throw badRequest('server.v1.invalidField', { field: issue.path.join('.') || 'body' });
}

export const parseChatBody = (body: unknown): ChatBody => parsed(chatBody, body);
export const parseEmbeddingsBody = (body: unknown): EmbeddingsBody => parsed(embeddingsBody, body);

/** The text of a message's content (its text parts joined): for token estimates and non-OpenAI models. */
export function contentText(content: ChatBody['messages'][number]['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (p.type === 'text' && typeof p.text === 'string' ? p.text : '')).join('');
}
