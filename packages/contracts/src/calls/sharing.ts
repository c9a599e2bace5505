import { z } from 'zod';
import { ConversationParamsSchema } from '../chat.js';
import {
  ContinuedConversationSchema,
  CreateShareBodySchema,
  ShareCreatedSchema,
  ShareLinkSchema,
  SharedConversationSchema,
  ShareTokenParamsSchema,
} from '../sharing.js';
import type { CallSpec } from './spec.js';

/**
 * Share links: the owner of a conversation shares a snapshot of it, lists and revokes the
 * links; anyone signed in reads a live link, and a visitor reads a public one where the site
 * allows it (an unreadable link is simply not found).
 */
export const SHARE_CALLS = {
  createShare: {
    method: 'POST',
    path: '/chat/conversations/:id/share',
    access: 'chat.use',
    params: ConversationParamsSchema,
    body: CreateShareBodySchema,
    response: ShareCreatedSchema,
    status: 201,
  },
  listShares: { method: 'GET', path: '/chat/shares', access: 'chat.use', response: z.array(ShareLinkSchema) },
  /** Revokes one of my links (another user's is not found). */
  revokeShare: { method: 'DELETE', path: '/chat/shares/:id', access: 'chat.use', response: ShareLinkSchema },
  readShare: {
    method: 'GET',
    path: '/share/:token',
    access: 'optional',
    params: ShareTokenParamsSchema,
    response: SharedConversationSchema,
  },
  /** Copies the snapshot into a new conversation of the caller; nothing is charged. */
  continueShare: {
    method: 'POST',
    path: '/share/:token/continue',
    access: 'chat.use',
    params: ShareTokenParamsSchema,
    response: ContinuedConversationSchema,
    status: 201,
  },
} as const satisfies Record<string, CallSpec>;
