import { ConversationParamsSchema, ERROR_STATUS, type ErrorCode, WatchAnswerQuerySchema } from '@aiplatform/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AnswerStream } from '../../ai/sse.js';
import { type Guards, currentAuth } from '../../lib/auth/auth-guard.js';
import { translate } from '../../lib/runtime/i18n.js';
import type { AnswerWatch } from './answer-watch.js';
import { accessHooks } from '../../lib/auth/call-access.js';

/**
 * GET /chat/conversations/{id}/stream: a page that comes back (reload, another tab, the
 * network back) attaches to the answer still being written, on whichever instance writes
 * it: `resume { message_id, content }` with the text so far, then `message` events and
 * `done` or `error` as a send has them. 204 when nothing is being written.
 */
export const answerWatchRoutes =
  (watch: AnswerWatch, guards: Guards, opts: { heartbeatMs: number }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/chat/conversations/:id/stream',
      {
        preValidation: accessHooks(guards, 'chat.use'),
        schema: {
          tags: ['chat'],
          summary: 'Attach to the answer in progress (text/event-stream), or 204 when none is',
          params: ConversationParamsSchema,
          querystring: WatchAnswerQuerySchema,
        },
      },
      async (req, reply) => {
        const answerId = await watch.streamingAnswer(currentAuth(req).user.id, req.params.id);
        if (!answerId) return reply.code(204).send();
        reply.hijack();
        const stream = new AnswerStream(reply.raw, {
          heartbeatMs: opts.heartbeatMs,
          deltaOnly: req.query.delta_only,
          headers: reply.getHeaders(),
        });
        // Leaving only ends this watcher: the answer goes on.
        const gone = new AbortController();
        stream.onClientGone(() => gone.abort());
        if (!stream.open || req.raw.socket?.destroyed) gone.abort();
        const error = (code: ErrorCode) =>
          stream.finish('error', {
            code: ERROR_STATUS[code],
            error: code,
            message: translate(req.lang, `errors.${code}`),
          });
        await watch.follow(
          req.params.id,
          answerId,
          {
            resume: (messageId, content) => {
              stream.event('resume', { message_id: messageId, content });
              stream.continueFrom(content);
            },
            delta: (text) => stream.delta(text),
            done: (data) => stream.finish('done', data),
            error,
            close: () => stream.end(),
          },
          gone.signal,
        );
      },
    );
  };
