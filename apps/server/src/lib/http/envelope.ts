import type { Pagination } from '@aiplatform/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { translate } from '../runtime/i18n.js';

/** Sends the success envelope with a message in the caller's language. */
export function sendOk<T>(
  req: FastifyRequest,
  reply: FastifyReply,
  data: T,
  opts: { status?: number; messageKey?: string; pagination?: Pagination } = {},
) {
  const status = opts.status ?? 200;
  const body = {
    success: true as const,
    code: status,
    message: translate(req.lang, opts.messageKey ?? (status === 201 ? 'server.created' : 'server.success')),
    data,
    ...(opts.pagination ? { pagination: opts.pagination } : {}),
    timestamp: new Date().toISOString(),
  };
  return reply.code(status).send(body);
}

export function paginate(page: number, limit: number, total: number): Pagination {
  const totalPages = Math.max(1, Math.ceil(total / limit));
  return { page, limit, total, totalPages, hasNext: page < totalPages, hasPrev: page > 1 };
}
