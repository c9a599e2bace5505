import {
  ActiveBranchBodySchema,
  ChatCreditsSchema,
  ClearResultSchema,
  ConversationDetailSchema,
  ConversationListQuerySchema,
  ConversationSchema,
  CreateConversationBodySchema,
  DeletePairResultSchema,
  DraftBodySchema,
  DraftSchema,
  MessageSchema,
  UpdateConversationBodySchema,
} from '@aiplatform/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Guards, currentAuth } from '../../lib/auth-guard.js';
import { sendOk } from '../../lib/envelope.js';
import { successEnvelope } from '../../lib/openapi.js';
import type { RateLimits } from '../../plugins/rate-limits.js';
import type { ConversationsService } from './conversations.service.js';
import { accessHooks } from '../../lib/call-access.js';

const tags = ['chat'];
export const ConversationParams = z.object({ id: z.string().uuid() });
export const MessageParams = z.object({ id: z.string().uuid(), messageId: z.string().uuid() });
/**
 * `keep_images=true`: the question's images stay as uploads, to be sent again at once
 * (regenerate, edit); unused, they go with the day-old uploads.
 */
const DeleteMessageQuery = z.object({ keep_images: z.enum(['true', 'false']).optional() });
const PaginationSchema = z.object({
  page: z.number(),
  limit: z.number(),
  total: z.number(),
  totalPages: z.number(),
  hasNext: z.boolean(),
  hasPrev: z.boolean(),
});
const ListEnvelope = successEnvelope(z.array(ConversationSchema)).extend({ pagination: PaginationSchema });

/** Conversations, their messages and drafts, and the chat balance. Wiring only. */
export const chatRoutes =
  (s: ConversationsService, guards: Guards, limits: RateLimits): FastifyPluginAsyncZod =>
  async (app) => {
    const chat = { preValidation: accessHooks(guards, 'chat.use') };
    const ok = <T extends z.ZodType>(data: T) => ({ 200: successEnvelope(data) });
    const userId = (req: Parameters<typeof currentAuth>[0]) => currentAuth(req).user.id;

    app.get(
      '/chat/conversations',
      { ...chat, schema: { tags, querystring: ConversationListQuerySchema, response: { 200: ListEnvelope } } },
      async (req, reply) => {
        const { items, pagination } = await s.list(userId(req), req.query.page, req.query.limit);
        return sendOk(req, reply, items, { pagination });
      },
    );
    app.post(
      '/chat/conversations',
      {
        ...chat,
        // New conversations per account and minute (QUOTAS.conversationsPerMinute).
        config: limits.conversationCreate,
        schema: { tags, body: CreateConversationBodySchema, response: { 201: successEnvelope(ConversationSchema) } },
      },
      async (req, reply) => sendOk(req, reply, await s.create(currentAuth(req).user, req.body), { status: 201 }),
    );
    app.get(
      '/chat/conversations/:id',
      { ...chat, schema: { tags, params: ConversationParams, response: ok(ConversationDetailSchema) } },
      async (req, reply) => sendOk(req, reply, await s.get(userId(req), req.params.id)),
    );
    app.put(
      '/chat/conversations/:id',
      {
        ...chat,
        schema: {
          tags,
          params: ConversationParams,
          body: UpdateConversationBodySchema,
          response: ok(ConversationSchema),
        },
      },
      async (req, reply) => sendOk(req, reply, await s.update(currentAuth(req).user, req.params.id, req.body)),
    );
    app.delete(
      '/chat/conversations/:id',
      {
        ...chat,
        schema: {
          tags,
          params: ConversationParams,
          response: ok(z.object({ conversationId: z.string(), deleted: z.literal(true) })),
        },
      },
      async (req, reply) => sendOk(req, reply, await s.remove(userId(req), req.params.id)),
    );
    app.get(
      '/chat/conversations/:id/messages',
      { ...chat, schema: { tags, params: ConversationParams, response: ok(z.array(MessageSchema)) } },
      async (req, reply) => sendOk(req, reply, await s.listMessages(userId(req), req.params.id)),
    );
    app.delete(
      '/chat/conversations/:id/messages/:messageId',
      {
        ...chat,
        schema: { tags, params: MessageParams, querystring: DeleteMessageQuery, response: ok(DeletePairResultSchema) },
      },
      async (req, reply) =>
        sendOk(
          req,
          reply,
          await s.deletePair(userId(req), req.params.id, req.params.messageId, {
            keepImages: req.query.keep_images === 'true',
          }),
        ),
    );
    app.put(
      '/chat/conversations/:id/active',
      {
        ...chat,
        schema: {
          tags,
          params: ConversationParams,
          body: ActiveBranchBodySchema,
          response: ok(z.array(MessageSchema)),
        },
      },
      async (req, reply) => sendOk(req, reply, await s.showVersion(userId(req), req.params.id, req.body.message_id)),
    );
    app.post(
      '/chat/conversations/:id/clear',
      { ...chat, schema: { tags, params: ConversationParams, response: ok(ClearResultSchema) } },
      async (req, reply) => sendOk(req, reply, await s.clear(userId(req), req.params.id)),
    );
    app.get(
      '/chat/conversations/:id/draft',
      { ...chat, schema: { tags, params: ConversationParams, response: ok(DraftSchema.nullable()) } },
      async (req, reply) => sendOk(req, reply, await s.getDraft(userId(req), req.params.id)),
    );
    app.post(
      '/chat/conversations/:id/draft',
      {
        ...chat,
        schema: {
          tags,
          params: ConversationParams,
          body: DraftBodySchema,
          response: ok(z.object({ saved: z.literal(true) })),
        },
      },
      async (req, reply) => sendOk(req, reply, await s.saveDraft(userId(req), req.params.id, req.body.content)),
    );
    app.delete(
      '/chat/conversations/:id/draft',
      { ...chat, schema: { tags, params: ConversationParams, response: ok(z.object({ deleted: z.literal(true) })) } },
      async (req, reply) => sendOk(req, reply, await s.deleteDraft(userId(req), req.params.id)),
    );
    app.get('/chat/credits', { ...chat, schema: { tags, response: ok(ChatCreditsSchema) } }, async (req, reply) =>
      sendOk(req, reply, await s.credits(userId(req))),
    );
  };
