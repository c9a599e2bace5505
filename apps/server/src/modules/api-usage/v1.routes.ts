import type { Language } from '@aiplatform/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable, isStorageFull } from '../../lib/data/db-errors.js';
import { AppError } from '../../lib/http/errors.js';
import { isTranslationKey, translate } from '../../lib/runtime/i18n.js';
import { V1Error, type V1ErrorType } from './v1-errors.js';
import type { V1Gate } from './v1-gate.js';
import { parseChatBody, parseEmbeddingsBody } from './v1-request.js';
import type { V1Service } from './v1.service.js';

export const V1_PREFIX = '/v1';
/** Requests may carry images as data URLs: more room than the JSON API's bodies. */
const V1_BODY_LIMIT = 16 * 1024 * 1024;

/**
 * The OpenAI-compatible API at the site root (`/v1`): plain routes, not calls of the JSON
 * API, because they speak OpenAI's wire format (its bodies, its server-sent chunks, its
 * error shape) and take a personal API key, not a session. Access: a valid key
 * (`Authorization: Bearer sk-…`), checked by the keys area before anything else is read.
 * Wiring only.
 */
export const v1Routes =
  (s: { gate: V1Gate; service: V1Service }) =>
  async (app: FastifyInstance): Promise<void> => {
    app.setErrorHandler(async (err, req, reply) => {
      const e = toV1Error(err);
      if (e.status >= 500) req.log.error({ err }, 'v1 request failed');
      if (reply.sent || reply.raw.headersSent) {
        // A stream already under way: the failure is its last event.
        writeEvent(reply, JSON.stringify(errorBody(req.lang, e)));
        writeEvent(reply, '[DONE]');
        reply.raw.end();
        return;
      }
      return reply.code(e.status).send(errorBody(req.lang, e));
    });
    app.setNotFoundHandler(async (req, reply) =>
      reply
        .code(404)
        .send(
          errorBody(
            req.lang,
            new V1Error(404, 'invalid_request_error', 'unknown_url', 'server.v1.unknownUrl', { url: req.url }),
          ),
        ),
    );

    const principal = (req: FastifyRequest) => s.gate.authenticate(req.headers.authorization, req.ip);
    const hidden = { schema: { tags: ['v1'] } };

    app.get('/models', hidden, async (req) => s.service.models.list(await principal(req)));

    app.post('/chat/completions', { ...hidden, bodyLimit: V1_BODY_LIMIT }, async (req, reply) => {
      const p = await principal(req);
      const body = parseChatBody(req.body);
      const gone = goneSignal(reply);
      if (!body.stream) return s.service.complete(p, body, gone);
      let started = false;
      const out = {
        write: (data: string) => {
          if (!started) {
            started = true;
            reply.hijack();
            reply.raw.writeHead(200, {
              ...headersOf(reply),
              'content-type': 'text/event-stream; charset=utf-8',
              'cache-control': 'no-cache, no-transform',
              'x-accel-buffering': 'no',
            });
          }
          writeEvent(reply, data);
        },
        get started() {
          return started;
        },
      };
      try {
        await s.service.stream(p, body, out, gone);
      } catch (err) {
        if (!started) throw err;
        const e = toV1Error(err);
        if (!gone.aborted) {
          writeEvent(reply, JSON.stringify(errorBody(req.lang, e)));
          writeEvent(reply, '[DONE]');
        }
      }
      reply.raw.end();
      return reply;
    });

    app.post('/embeddings', { ...hidden, bodyLimit: V1_BODY_LIMIT }, async (req, reply) => {
      const p = await principal(req);
      return s.service.embeddings(p, parseEmbeddingsBody(req.body), goneSignal(reply));
    });
  };

/** Aborts when the client closes the connection before the answer was written. */
function goneSignal(reply: FastifyReply): AbortSignal {
  const ac = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) ac.abort();
  });
  return ac.signal;
}

function headersOf(reply: FastifyReply): Record<string, string | number | string[]> {
  const out: Record<string, string | number | string[]> = {};
  for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined && k !== 'content-length') out[k] = v;
  return out;
}

function writeEvent(reply: FastifyReply, data: string): void {
  if (!reply.raw.writableEnded && !reply.raw.destroyed) reply.raw.write(`data: ${data}\n\n`);
}

function errorBody(lang: Language, e: V1Error) {
  const message = isTranslationKey(lang, e.message) ? translate(lang, e.message, e.params) : e.message;
  return { error: { message, type: e.type, code: e.code, param: null } };
}

/** The keys area's refusals, by their OpenAI code. */
const KEY_REFUSALS: Record<string, { type: V1ErrorType; message: string }> = {
  invalid_api_key: { type: 'invalid_request_error', message: 'server.v1.invalidApiKey' },
  ip_not_allowed: { type: 'permission_error', message: 'server.v1.ipNotAllowed' },
  permission_denied: { type: 'permission_error', message: 'server.v1.permissionDenied' },
  rate_limit_exceeded: { type: 'rate_limit_error', message: 'server.v1.rateLimited' },
};

/** Any error as the OpenAI-shaped refusal the client is told; never a 5xx for bad input. */
function toV1Error(err: unknown): V1Error {
  if (err instanceof V1Error) return err;
  const e = err as { status?: unknown; statusCode?: unknown; code?: unknown; message?: unknown };
  const r = typeof e.code === 'string' ? KEY_REFUSALS[e.code] : undefined;
  if (r && typeof e.code === 'string' && typeof e.status === 'number') {
    return new V1Error(e.status, r.type, e.code, r.message);
  }
  if (err instanceof AppError) {
    // A usage cap refuses like the balance does: the key holder's quota for now.
    if ((err.code as string) === 'CAP_REACHED')
      return new V1Error(429, 'insufficient_quota', 'insufficient_quota', 'errors.CAP_REACHED', err.params);
    if (err.status < 500)
      return new V1Error(
        err.status,
        'invalid_request_error',
        'invalid_request_error',
        `errors.${err.code}`,
        err.params,
      );
  }
  if (isDatabaseUnavailable(err) || isStorageFull(err))
    return new V1Error(503, 'api_error', 'service_unavailable', 'errors.SERVICE_UNAVAILABLE');
  const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500)
    return new V1Error(status, 'invalid_request_error', 'invalid_request_error', 'server.v1.badRequest', {
      reason: typeof e.message === 'string' ? e.message : '',
    });
  return new V1Error(500, 'api_error', 'internal_error', 'errors.INTERNAL');
}
