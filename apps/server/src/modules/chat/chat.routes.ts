import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentAuth } from '../../lib/auth/auth-guard.js';
import { registerCall } from '../../lib/http/call-route.js';
import type { RateLimits } from '../../plugins/rate-limits.js';
import type { ConversationsService } from './conversations.service.js';

/** Conversations, their messages and drafts, and the chat balance. Wiring only. */
export const chatRoutes =
  (s: ConversationsService, limits: RateLimits): FastifyPluginAsyncZod =>
  async (app) => {
    const userId = (req: Parameters<typeof currentAuth>[0]) => currentAuth(req).user.id;

    registerCall(app, 'listConversations', ({ req, query }) => s.list(userId(req), query.page, query.limit));
    // New conversations per account and minute (QUOTAS.conversationsPerMinute).
    registerCall(app, 'createConversation', ({ req, body }) => s.create(currentAuth(req).user, body), {
      config: limits.conversationCreate,
    });
    registerCall(app, 'getConversation', ({ req, params }) => s.get(userId(req), params.id));
    registerCall(app, 'updateConversation', ({ req, params, body }) =>
      s.update(currentAuth(req).user, params.id, body),
    );
    registerCall(app, 'deleteConversation', ({ req, params }) => s.remove(userId(req), params.id));
    registerCall(app, 'clearConversation', ({ req, params }) => s.clear(userId(req), params.id));
    registerCall(app, 'listMessages', ({ req, params }) => s.listMessages(userId(req), params.id));
    registerCall(app, 'deleteMessage', ({ req, params, query }) =>
      s.deletePair(userId(req), params.id, params.messageId, { keepImages: query.keep_images === 'true' }),
    );
    registerCall(app, 'showVersion', ({ req, params, body }) => s.showVersion(userId(req), params.id, body.message_id));
    registerCall(app, 'getDraft', ({ req, params }) => s.getDraft(userId(req), params.id));
    registerCall(app, 'saveDraft', ({ req, params, body }) => s.saveDraft(userId(req), params.id, body.content));
    registerCall(app, 'deleteDraft', ({ req, params }) => s.deleteDraft(userId(req), params.id));
    registerCall(app, 'chatCredits', ({ req }) => s.credits(userId(req)));
  };
