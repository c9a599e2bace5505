import {
  ERROR_STATUS,
  type ErrorCode,
  NonStreamAnswerSchema,
  RegenerateBodySchema,
  type SendMessageBody,
  SendMessageBodySchema,
  StopAnswerResultSchema,
  sendFileIds,
} from '@aiplatform/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AnswerStream } from '../../ai/sse.js';
import { type Guards, currentAuth } from '../../lib/auth-guard.js';
import { isWorthRetrying } from '../../lib/db-errors.js';
import { sendOk } from '../../lib/envelope.js';
import { translate } from '../../lib/i18n.js';
import { successEnvelope } from '../../lib/openapi.js';
import type { RateLimits } from '../../plugins/rate-limits.js';
import { ConversationParams, MessageParams } from './chat.routes.js';
import type { SendService } from './send.service.js';
import type { Turn } from './turn.js';
import { accessHooks } from '../../lib/call-access.js';

// An empty text is fine with an image; with neither there is nothing to send.
const SendBodySchema = SendMessageBodySchema.refine((b) => b.content.trim() !== '' || sendFileIds(b).length > 0, {
  message: 'server.chat.contentRequired',
  path: ['content'],
});

/**
 * POST /chat/conversations/{id}/messages. Refusals (404, 402, model rules) come back as
 * ordinary JSON envelopes, because `prepare` runs before the response is taken over for
 * server-sent events.
 */
export const sendRoutes =
  (send: SendService, guards: Guards, limits: RateLimits, opts: { heartbeatMs: number }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/chat/conversations/:id/messages',
      {
        preValidation: accessHooks(guards, 'chat.use'),
        config: limits.chatSend,
        schema: {
          tags: ['chat'],
          summary: 'Send a message: text/event-stream answer, or JSON with `stream: false`',
          params: ConversationParams,
          body: SendBodySchema,
          response: { 200: successEnvelope(NonStreamAnswerSchema) },
        },
      },
      async (req, reply) => {
        const ac = new AbortController();
        const turn = await send.prepare(currentAuth(req).user, req.params.id, req.body, ac);
        return answer(req, reply, send, turn, ac, req.body, opts);
      },
    );

    // A new version of a stored question's answer: a billed turn like a send, answered the same way.
    app.post(
      '/chat/conversations/:id/messages/:messageId/regenerate',
      {
        preValidation: accessHooks(guards, 'chat.use'),
        config: limits.chatSend,
        schema: {
          tags: ['chat'],
          summary: 'Answer a question again (a new version): text/event-stream, or JSON with `stream: false`',
          params: MessageParams,
          body: RegenerateBodySchema,
          response: { 200: successEnvelope(NonStreamAnswerSchema) },
        },
      },
      async (req, reply) => {
        const ac = new AbortController();
        const body = { ...req.body, content: '' };
        const turn = await send.prepare(currentAuth(req).user, req.params.id, body, ac, req.params.messageId);
        return answer(req, reply, send, turn, ac, body, opts);
      },
    );

    // Stop as a call, beside closing the connection: works for a client that cannot cut
    // its own request (a proxy buffering it, another tab) and answers once the text is stored.
    app.post(
      '/chat/conversations/:id/stop',
      {
        preValidation: accessHooks(guards, 'chat.use'),
        schema: {
          tags: ['chat'],
          summary: 'Stop the answers in progress in a conversation',
          params: ConversationParams,
          response: { 200: successEnvelope(StopAnswerResultSchema) },
        },
      },
      async (req, reply) => sendOk(req, reply, await send.stop(currentAuth(req).user.id, req.params.id)),
    );
  };

/** Streams the turn's answer when asked and the model streams; otherwise answers it whole. */
async function answer(
  req: FastifyRequest,
  reply: FastifyReply,
  send: SendService,
  turn: Turn,
  ac: AbortController,
  body: Pick<SendMessageBody, 'stream' | 'stream_options'>,
  opts: { heartbeatMs: number },
) {
  if (body.stream && turn.model.row.stream_enabled === 1) {
    return relay(req, reply, send, turn, ac, {
      heartbeatMs: opts.heartbeatMs,
      deltaOnly: !!body.stream_options?.delta_only,
    });
  }
  // A client that gives up waiting stops nothing: the answer is still written and charged.
  return sendOk(req, reply, await send.answerWhole(turn, ac));
}

/** Takes the response over and relays the answer as server-sent events. */
async function relay(
  req: FastifyRequest,
  reply: FastifyReply,
  send: SendService,
  turn: Turn,
  ac: AbortController,
  opts: { heartbeatMs: number; deltaOnly: boolean },
) {
  reply.hijack();
  // A closed connection is not a stop (reload, lost network): the answer goes on within its
  // time limits and the page may attach again through GET …/stream. Only the stop call stops it.
  const stream = new AnswerStream(reply.raw, { ...opts, headers: reply.getHeaders() });
  stream.event('connected', { status: 'connected' });
  stream.event('init', {
    user_message: turn.userMessage,
    ai_message_id: turn.answerId,
    credits_info: {
      credits_consumed: turn.cost,
      credits_remaining: turn.creditsRemaining,
      model_credits_per_chat: turn.model.row.credits_per_chat,
    },
  });
  const error = (code: ErrorCode) =>
    stream.finish('error', { code: ERROR_STATUS[code], error: code, message: translate(req.lang, `errors.${code}`) });
  try {
    await send.answerStream(turn, { delta: (t) => stream.delta(t), done: (d) => stream.finish('done', d), error }, ac);
  } catch (err) {
    // As for the HTTP answers: a database that went away, or a full disk, is worth retrying (503), not a bug.
    if (isWorthRetrying(err)) {
      req.log.warn({ err }, 'answer stream cut: database unavailable or disk full');
      error('SERVICE_UNAVAILABLE');
    } else {
      req.log.error({ err }, 'answer stream failed');
      error('INTERNAL');
    }
  }
}
