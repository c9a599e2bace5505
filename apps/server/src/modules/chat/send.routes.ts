import { ERROR_STATUS, type ErrorCode, type SendMessageBody } from '@aiplatform/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AnswerStream } from '../../ai/sse.js';
import { currentAuth } from '../../lib/auth/auth-guard.js';
import { registerCall } from '../../lib/http/call-route.js';
import { isWorthRetrying } from '../../lib/data/db-errors.js';
import { sendOk } from '../../lib/http/envelope.js';
import { translate } from '../../lib/runtime/i18n.js';
import type { RateLimits } from '../../plugins/rate-limits.js';
import type { SendService } from './send.service.js';
import type { Turn } from './turn.js';

/**
 * POST /chat/conversations/{id}/messages and …/regenerate. Refusals (404, 402, model rules)
 * come back as ordinary JSON envelopes, because `prepare` runs before the response is taken
 * over for server-sent events.
 */
export const sendRoutes =
  (send: SendService, limits: RateLimits, opts: { heartbeatMs: number }): FastifyPluginAsyncZod =>
  async (app) => {
    registerCall(
      app,
      'sendMessage',
      async ({ req, reply, params, body }) => {
        const ac = new AbortController();
        const turn = await send.prepare(currentAuth(req).user, params.id, body, ac);
        return answer(req, reply, send, turn, ac, body, opts);
      },
      { config: limits.chatSend },
    );

    // The composer's preview of a send with these files: decided by the same code as the send.
    registerCall(app, 'documentPlan', ({ req, params, body }) =>
      send.documentPlan(currentAuth(req).user, params.id, body.file_ids, body.model_name),
    );

    // A new version of a stored question's answer: a billed turn like a send, answered the same way.
    registerCall(
      app,
      'regenerateAnswer',
      async ({ req, reply, params, body }) => {
        const ac = new AbortController();
        const turnBody = { ...body, content: '' };
        const turn = await send.prepare(currentAuth(req).user, params.id, turnBody, ac, params.messageId);
        return answer(req, reply, send, turn, ac, turnBody, opts);
      },
      { config: limits.chatSend },
    );

    // Stop as a call, beside closing the connection: works for a client that cannot cut
    // its own request (a proxy buffering it, another tab) and answers once the text is stored.
    registerCall(app, 'stopAnswer', ({ req, params }) => send.stop(currentAuth(req).user.id, params.id));
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
): Promise<FastifyReply> {
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
): Promise<FastifyReply> {
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
  return reply;
}
