import { z } from 'zod';
import {
  ActiveBranchBodySchema,
  ChatCreditsSchema,
  ChatModelSchema,
  ClearResultSchema,
  ConversationDetailSchema,
  ConversationListQuerySchema,
  ConversationParamsSchema,
  ConversationSchema,
  CreateConversationBodySchema,
  DeleteConversationResultSchema,
  DeleteMessageQuerySchema,
  DeletePairResultSchema,
  DraftBodySchema,
  DraftSchema,
  MessageParamsSchema,
  MessageSchema,
  NonStreamAnswerSchema,
  RegenerateBodySchema,
  SendMessageBodySchema,
  StopAnswerResultSchema,
  UpdateConversationBodySchema,
  sendFileIds,
} from '../chat.js';
import { MessageSearchQuerySchema, MessageSearchResultSchema } from '../chat-search.js';
import { DocumentPlanBodySchema, DocumentPlanSchema } from '../documents.js';

import type { CallSpec } from './spec.js';

// An empty text is fine with an image; with neither there is nothing to send.
const SendBodySchema = SendMessageBodySchema.refine((b) => b.content.trim() !== '' || sendFileIds(b).length > 0, {
  message: 'server.chat.contentRequired',
  path: ['content'],
});

/**
 * Conversations, messages, drafts, search and the chat's models and credits: every call
 * needs `chat.use`; each conversation is its owner's alone (the service answers 404 to
 * anyone else).
 */
export const CHAT_CALLS = {
  /** The model picker's list: active models the caller's group may use. */
  chatModels: { method: 'GET', path: '/chat/models', access: 'chat.use', response: z.array(ChatModelSchema) },
  chatCredits: { method: 'GET', path: '/chat/credits', access: 'chat.use', response: ChatCreditsSchema },
  searchMessages: {
    method: 'GET',
    path: '/chat/search',
    access: 'chat.use',
    query: MessageSearchQuerySchema,
    response: MessageSearchResultSchema,
  },

  listConversations: {
    method: 'GET',
    path: '/chat/conversations',
    access: 'chat.use',
    query: ConversationListQuerySchema,
    response: z.array(ConversationSchema),
    paginated: true,
  },
  createConversation: {
    method: 'POST',
    path: '/chat/conversations',
    access: 'chat.use',
    body: CreateConversationBodySchema,
    response: ConversationSchema,
    status: 201,
  },
  getConversation: {
    method: 'GET',
    path: '/chat/conversations/:id',
    access: 'chat.use',
    params: ConversationParamsSchema,
    response: ConversationDetailSchema,
  },
  updateConversation: {
    method: 'PUT',
    path: '/chat/conversations/:id',
    access: 'chat.use',
    params: ConversationParamsSchema,
    body: UpdateConversationBodySchema,
    response: ConversationSchema,
  },
  deleteConversation: {
    method: 'DELETE',
    path: '/chat/conversations/:id',
    access: 'chat.use',
    params: ConversationParamsSchema,
    response: DeleteConversationResultSchema,
  },
  clearConversation: {
    method: 'POST',
    path: '/chat/conversations/:id/clear',
    access: 'chat.use',
    params: ConversationParamsSchema,
    response: ClearResultSchema,
  },

  /** The messages of the branch shown. */
  listMessages: {
    method: 'GET',
    path: '/chat/conversations/:id/messages',
    access: 'chat.use',
    params: ConversationParamsSchema,
    response: z.array(MessageSchema),
  },
  /**
   * A version with what follows it, or a turn without versions on its own (an answer with
   * its question, or an unanswered question); `deleted_ids` lists what went.
   */
  deleteMessage: {
    method: 'DELETE',
    path: '/chat/conversations/:id/messages/:messageId',
    access: 'chat.use',
    params: MessageParamsSchema,
    query: DeleteMessageQuerySchema,
    response: DeletePairResultSchema,
  },
  /** Shows the branch of one version (it and its newest descendants); answers that branch. */
  showVersion: {
    method: 'PUT',
    path: '/chat/conversations/:id/active',
    access: 'chat.use',
    params: ConversationParamsSchema,
    body: ActiveBranchBodySchema,
    response: z.array(MessageSchema),
  },

  /**
   * A question and its answer: server-sent events (connected, init, message*, done or
   * error) when `stream` is true and the model streams, else this JSON answer. Refusals
   * before the turn begins (404, 402, the model's rules) are ordinary error envelopes.
   */
  sendMessage: {
    method: 'POST',
    path: '/chat/conversations/:id/messages',
    access: 'chat.use',
    params: ConversationParamsSchema,
    body: SendBodySchema,
    response: NonStreamAnswerSchema,
    stream: true,
    summary: 'Send a message: text/event-stream answer, or JSON with `stream: false`',
  },
  /** A new version of a stored question's answer: a billed turn, answered as a send is. */
  regenerateAnswer: {
    method: 'POST',
    path: '/chat/conversations/:id/messages/:messageId/regenerate',
    access: 'chat.use',
    params: MessageParamsSchema,
    body: RegenerateBodySchema,
    response: NonStreamAnswerSchema,
    stream: true,
    summary: 'Answer a question again (a new version): text/event-stream, or JSON with `stream: false`',
  },
  /**
   * Stops the answers in progress, for a client that cannot cut its own request (a proxy
   * buffering it, another tab); answers once the text is stored.
   */
  stopAnswer: {
    method: 'POST',
    path: '/chat/conversations/:id/stop',
    access: 'chat.use',
    params: ConversationParamsSchema,
    response: StopAnswerResultSchema,
  },

  /**
   * What a send with these files would do now: documents whole or by relevance (the
   * conversation's knowledge bases always by relevance), their tokens and the turn's price.
   */
  documentPlan: {
    method: 'POST',
    path: '/chat/conversations/:id/document-plan',
    access: 'chat.use',
    params: ConversationParamsSchema,
    body: DocumentPlanBodySchema,
    response: DocumentPlanSchema,
  },

  getDraft: {
    method: 'GET',
    path: '/chat/conversations/:id/draft',
    access: 'chat.use',
    params: ConversationParamsSchema,
    response: DraftSchema.nullable(),
  },
  saveDraft: {
    method: 'POST',
    path: '/chat/conversations/:id/draft',
    access: 'chat.use',
    params: ConversationParamsSchema,
    body: DraftBodySchema,
    response: z.object({ saved: z.literal(true) }),
  },
  deleteDraft: {
    method: 'DELETE',
    path: '/chat/conversations/:id/draft',
    access: 'chat.use',
    params: ConversationParamsSchema,
    response: z.object({ deleted: z.literal(true) }),
  },
} as const satisfies Record<string, CallSpec>;
