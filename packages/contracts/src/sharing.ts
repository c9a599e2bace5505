import { z } from 'zod';
import { ConversationSchema } from './chat.js';
import { CitationSchema } from './documents.js';

/*
 * Share links: a snapshot of a conversation's branch, read through a random token. Rules in
 * docs/sharing.md.
 */

/** Tokens are 32 random bytes in base64url: 43 characters. */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const SHARE_LIMITS = {
  /** The latest expiry a link may be given, in days from now. */
  maxExpiryDays: 365,
  /** Links one account may have that are not revoked (a revoked link no longer holds its snapshot). */
  liveLinksPerUser: 500,
} as const;

export const CreateShareBodySchema = z.object({
  /** When the link stops working (ISO 8601, in the future); absent or null: never. */
  expires_at: z.iso.datetime({ offset: true, error: 'validation.share.expiresAt' }).nullable().optional(),
  /** Readable without signing in, where the site allows public links. */
  public: z.boolean().optional(),
});
export type CreateShareBody = z.infer<typeof CreateShareBodySchema>;

export const ShareCreatedSchema = z.object({
  id: z.number(),
  token: z.string(),
  /** The page that shows the snapshot (absolute when the site's address is configured). */
  url: z.string(),
});
export type ShareCreated = z.infer<typeof ShareCreatedSchema>;

/** One of my links, as the list shows it (its token is shown only once, when it is made). */
export const ShareLinkSchema = z.object({
  id: z.number(),
  conversation_id: z.string().nullable(),
  title: z.string(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  public: z.boolean(),
  visits: z.number(),
  revoked: z.boolean(),
  revoked_at: z.string().nullable(),
});
export type ShareLink = z.infer<typeof ShareLinkSchema>;

export const SharedMessageSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  created_at: z.string(),
  /** The answering model's display name as it was when shared. */
  model_display_name: z.string().nullable(),
  /** `stopped`: the answer was stopped by its author. */
  stopped: z.boolean(),
  /** Files the message carried; they are not part of a snapshot, only counted. */
  files_omitted: z.number(),
  citations: z.array(CitationSchema),
});
export type SharedMessage = z.infer<typeof SharedMessageSchema>;

/** GET /share/:token: the snapshot as it was taken. */
export const SharedConversationSchema = z.object({
  title: z.string(),
  model_name: z.string(),
  model_display_name: z.string(),
  shared_at: z.string(),
  public: z.boolean(),
  messages: z.array(SharedMessageSchema),
});
export type SharedConversation = z.infer<typeof SharedConversationSchema>;

export const ShareTokenParamsSchema = z.object({ token: z.string().regex(SHARE_TOKEN_PATTERN) });

/** POST /share/:token/continue answers the caller's new conversation. */
export const ContinuedConversationSchema = ConversationSchema;
