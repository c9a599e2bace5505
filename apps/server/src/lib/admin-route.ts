import { ROW_ID_MAX, ADMIN_CALLS, type AdminCallName, PaginationSchema, type Pagination } from '@aiplatform/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import { sendOk } from './envelope.js';
import { InputError } from './errors.js';
import { successEnvelope } from './openapi.js';

type Spec<N extends AdminCallName> = (typeof ADMIN_CALLS)[N];
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface CallInput<N extends AdminCallName> {
  req: FastifyRequest;
  body: Out<Spec<N> extends { body: infer B } ? B : undefined>;
  query: Out<Spec<N> extends { query: infer Q } ? Q : undefined>;
  /** The `:id` path parameter, when the path has one. */
  id: number;
}

type Answer<N extends AdminCallName> =
  Spec<N> extends { paginated: true }
    ? { items: z.output<Spec<N>['response']>; pagination: Pagination }
    : z.output<Spec<N>['response']>;

/** Ids are positive 32-bit integers; anything else is a bad request, never a database error. */
const IdParams = z.object({ id: z.coerce.number().int().min(1).max(ROW_ID_MAX) });

/**
 * Registers one admin call from its description in the contract: method, path, body,
 * query and answer schemas all come from `ADMIN_CALLS`, so the route cannot drift from
 * what the web client sends and expects.
 */
export function registerCall<N extends AdminCallName>(
  app: FastifyInstance,
  name: N,
  preHandler: preHandlerAsyncHookHandler[],
  handler: (input: CallInput<N>) => Promise<Answer<N>>,
): void {
  const spec = ADMIN_CALLS[name] as Spec<N> & {
    body?: z.ZodType;
    query?: z.ZodType;
    paginated?: boolean;
    status?: 201;
  };
  const status = spec.status ?? 200;
  const envelope = spec.paginated
    ? successEnvelope(spec.response).extend({ pagination: PaginationSchema })
    : successEnvelope(spec.response);
  app.route({
    method: spec.method,
    url: spec.path,
    preHandler,
    schema: {
      tags: ['admin'],
      operationId: name,
      ...(spec.path.includes(':id') ? { params: IdParams } : {}),
      ...(spec.body ? { body: spec.body } : {}),
      ...(spec.query ? { querystring: spec.query } : {}),
      response: { [status]: envelope },
    },
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      const input = {
        req,
        body: req.body,
        query: req.query,
        id: (req.params as { id?: number }).id ?? 0,
      } as CallInput<N>;
      const answer = await handler(input);
      if (spec.paginated) {
        const { items, pagination } = answer as { items: unknown; pagination: Pagination };
        return sendOk(req, reply, items, { status, pagination });
      }
      return sendOk(req, reply, answer, { status });
    },
  });
}

/**
 * The Idempotency-Key header. A malformed key is refused rather than ignored: ignoring
 * it would silently drop the protection the client asked for.
 */
export function idempotencyKeyOf(req: FastifyRequest): string | undefined {
  const key = req.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (typeof key === 'string' && /^[\w.:-]{1,128}$/.test(key)) return key;
  throw new InputError(['validation.idempotencyKey.invalid']);
}
