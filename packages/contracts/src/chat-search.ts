import { z } from 'zod';
import { clampedLimit } from './fields.js';

/*
 * GET /chat/search: full-text search over the text of the caller's own messages.
 * What is indexed and how words are matched is described in docs/behaviour.md (message search).
 */

export const MESSAGE_SEARCH = {
  /** Query length after trimming, in characters. */
  queryMax: 100,
  defaultLimit: 20,
  /** A larger `limit` is clamped to this. */
  maxLimit: 50,
  /** Longest snippet, ellipses included. */
  snippetMax: 160,
} as const;

export const MessageSearchQuerySchema = z.object({
  q: z
    .string({ error: 'validation.search.required' })
    .trim()
    .min(1, 'validation.search.required')
    .max(MESSAGE_SEARCH.queryMax, 'validation.search.max'),
  limit: clampedLimit(MESSAGE_SEARCH.maxLimit, MESSAGE_SEARCH.defaultLimit),
});
export type MessageSearchQuery = z.input<typeof MessageSearchQuerySchema>;

export const MessageSearchHitSchema = z.object({
  conversation_id: z.string(),
  conversation_title: z.string(),
  model_name: z.string(),
  message_id: z.string(),
  role: z.enum(['user', 'assistant']),
  created_at: z.string(),
  /** Plain text around the first hit (markdown marks dropped), at most `snippetMax` characters. */
  snippet: z.string(),
  /** [start, end) ranges of `snippet` (JavaScript string offsets) where the query matched. */
  highlights: z.array(z.tuple([z.number().int(), z.number().int()])),
});
export type MessageSearchHit = z.infer<typeof MessageSearchHitSchema>;

/** Newest message first. */
export const MessageSearchResultSchema = z.object({ items: z.array(MessageSearchHitSchema) });
export type MessageSearchResult = z.infer<typeof MessageSearchResultSchema>;
