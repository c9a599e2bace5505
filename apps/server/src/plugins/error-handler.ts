import { ERROR_STATUS, type ErrorCode, type Language } from '@aiplatform/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable, isStorageFull } from '../lib/data/db-errors.js';
import { AppError, InputError } from '../lib/http/errors.js';
import { isTranslationKey, translate } from '../lib/runtime/i18n.js';

/** A validation item as fastify-type-provider-zod reports it (zod issue flattened). */
interface ValidationItem {
  keyword: string;
  instancePath: string;
  message: string;
  params: { keys?: string[]; expected?: string; input?: unknown };
}

/** Translates one validation issue; schema messages are i18n keys, the rest go by issue code. */
function describeIssue(lang: Language, item: ValidationItem): string {
  if (isTranslationKey(lang, item.message)) return translate(lang, item.message);
  const field = item.instancePath.replace(/^\//, '').replace(/\//g, '.') || translate(lang, 'validation.body');
  switch (item.keyword) {
    case 'invalid_type':
      return translate(
        lang,
        /received undefined/.test(item.message) ? 'validation.required' : 'validation.invalidType',
        { field },
      );
    case 'unrecognized_keys':
      return translate(lang, 'validation.unknownFields', { keys: (item.params.keys ?? []).join(', ') });
    case 'too_big':
      return translate(lang, 'validation.tooBig', { field });
    case 'too_small':
      return translate(lang, 'validation.tooSmall', { field });
    case 'invalid_value':
    case 'invalid_union':
      return translate(lang, 'validation.invalidValue', { field });
    default:
      return translate(lang, 'validation.invalid', { field });
  }
}

function sendError(
  req: FastifyRequest,
  reply: FastifyReply,
  code: ErrorCode,
  status: number,
  opts: { params?: Record<string, string | number>; data?: Record<string, unknown>; message?: string } = {},
) {
  return reply.code(status).send({
    success: false,
    code: status,
    error: code,
    message: opts.message ?? translate(req.lang, `errors.${code}`, opts.params),
    ...(opts.data ? { data: opts.data } : {}),
    requestId: req.id,
    timestamp: new Date().toISOString(),
  });
}

/** Maps fastify's own error codes for malformed requests onto ours (always 4xx). */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'VALIDATION_FAILED',
  FST_REQ_FILE_TOO_LARGE: 'FILE_TOO_LARGE',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_FILES_LIMIT: 'VALIDATION_FAILED',
  FST_PARTS_LIMIT: 'VALIDATION_FAILED',
  FST_FIELDS_LIMIT: 'VALIDATION_FAILED',
};

/** Library errors that carry only an HTTP status keep their meaning. */
const CLIENT_STATUS_CODES: Record<number, ErrorCode> = {
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
};

/** The single place that turns any thrown error into the error envelope. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof InputError) {
      const errors = err.messageKeys.map((key) => translate(req.lang, key));
      return sendError(req, reply, 'VALIDATION_FAILED', 400, { data: { errors }, message: errors[0] ?? undefined });
    }
    if (err instanceof AppError) {
      return sendError(req, reply, err.code, err.status, {
        params: err.params,
        ...(err.data ? { data: err.data } : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const errors = [...new Set(err.validation.map((v) => describeIssue(req.lang, v as unknown as ValidationItem)))];
      return sendError(req, reply, 'VALIDATION_FAILED', 400, { data: { errors }, message: errors[0] ?? undefined });
    }
    const mapped = err.code ? FASTIFY_CODES[err.code] : undefined;
    if (mapped) {
      // The status follows our code, not the library's choice,
      // e.g. @fastify/multipart answers a non-multipart request with 406.
      return sendError(req, reply, mapped, ERROR_STATUS[mapped]);
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      req.log.info({ err }, 'client error');
      const code = CLIENT_STATUS_CODES[err.statusCode] ?? 'VALIDATION_FAILED';
      return sendError(req, reply, code, ERROR_STATUS[code]);
    }
    if (isDatabaseUnavailable(err)) {
      // The database is away (restart, failover, unreachable): worth retrying, not a bug.
      req.log.warn({ err }, 'database unavailable');
      void reply.header('Retry-After', '5');
      return sendError(req, reply, 'SERVICE_UNAVAILABLE', 503);
    }
    if (isStorageFull(err)) {
      // A full disk (uploads or the database): nothing wrong with the request, and an
      // operator is needed; logged as an error so that it is seen.
      req.log.error({ err }, 'storage full');
      void reply.header('Retry-After', '60');
      return sendError(req, reply, 'SERVICE_UNAVAILABLE', 503);
    }
    req.log.error({ err }, 'unhandled error');
    return sendError(req, reply, 'INTERNAL', 500);
  });
}
