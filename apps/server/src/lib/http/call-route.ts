import {
  API_CALLS,
  type CallName,
  type CallSpec,
  PaginationSchema,
  type Pagination,
  ROW_ID_MAX,
} from '@aiplatform/contracts';
import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preHandlerAsyncHookHandler,
} from 'fastify';
import { z } from 'zod';
import { accessHooks } from '../auth/call-access.js';
import { sendOk } from './envelope.js';
import { InputError } from './errors.js';
import { successEnvelope } from './openapi.js';

type Spec<N extends CallName> = (typeof API_CALLS)[N];
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type ParamsOf<N extends CallName> = Spec<N> extends { params: infer P } ? Out<P> : Record<string, number>;

export interface CallInput<N extends CallName> {
  req: FastifyRequest;
  reply: FastifyReply;
  body: Out<Spec<N> extends { body: infer B } ? B : undefined>;
  query: Out<Spec<N> extends { query: infer Q } ? Q : undefined>;
  /** Every path parameter, parsed. */
  params: ParamsOf<N>;
  /** The `:id` path parameter, when the path has one. */
  id: number;
}

type Answer<N extends CallName> =
  Spec<N> extends { stream: true }
    ? FastifyReply
    : Spec<N> extends { paginated: true }
      ? { items: z.output<Spec<N>['response']>; pagination: Pagination }
      : z.output<Spec<N>['response']>;

export interface CallOptions {
  /** Route config (rate-limit buckets). */
  config?: FastifyContextConfig;
  /** Hooks that run after validation and before the handler. */
  preHandler?: preHandlerAsyncHookHandler[];
  /** The envelope's message, when the call confirms something more specific than success. */
  messageKey?: string;
}

/** Ids are positive 32-bit integers; anything else is a bad request, never a database error. */
const RowId = z.coerce.number().int().min(1).max(ROW_ID_MAX);

/** Row-id parameters of the path, and those the spec describes itself. */
function paramsSchema(spec: CallSpec): z.ZodType | undefined {
  const names = [...spec.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  if (names.length === 0) return undefined;
  const described = spec.params instanceof z.ZodObject ? (spec.params.shape as Record<string, z.ZodType>) : {};
  return z.object(Object.fromEntries(names.map((name) => [name, described[name] ?? RowId])));
}

/**
 * Registers one call from its description in the contract: method, path, access, body,
 * query and answer schemas all come from `API_CALLS`, so the route cannot drift from what
 * clients send and expect. Access is enforced before validation; the handler keeps only
 * the per-object checks.
 */
export function registerCall<N extends CallName>(
  app: FastifyInstance,
  name: N,
  handler: (input: CallInput<N>) => Promise<Answer<N>> | Answer<N>,
  options: CallOptions = {},
): void {
  const spec: CallSpec = API_CALLS[name];
  const status = spec.status ?? 200;
  const envelope = spec.paginated
    ? successEnvelope(spec.response).extend({ pagination: PaginationSchema })
    : successEnvelope(spec.response);
  const params = paramsSchema(spec);
  const sent = { status, ...(options.messageKey ? { messageKey: options.messageKey } : {}) };
  app.route({
    method: spec.method,
    url: spec.path,
    preValidation: accessHooks(app.guards, spec.access),
    ...(options.preHandler ? { preHandler: options.preHandler } : {}),
    ...(options.config ? { config: options.config } : {}),
    schema: {
      tags: [spec.path.split('/')[1] ?? 'api'],
      operationId: name,
      ...(params ? { params } : {}),
      ...(spec.body ? { body: spec.body } : {}),
      ...(spec.query ? { querystring: spec.query } : {}),
      ...(spec.summary ? { summary: spec.summary } : {}),
      // A stream call's events bypass the serializer (the reply is taken over); its JSON answer does not.
      response: { [status]: envelope },
    },
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      const pathParams = (req.params ?? {}) as Record<string, unknown>;
      const input = {
        req,
        reply,
        body: req.body,
        query: req.query,
        params: pathParams,
        id: (pathParams.id as number | undefined) ?? 0,
      } as CallInput<N>;
      const answer = await handler(input);
      if (spec.stream) return answer;
      if (spec.paginated) {
        const { items, pagination } = answer as { items: unknown; pagination: Pagination };
        return sendOk(req, reply, items, { ...sent, pagination });
      }
      return sendOk(req, reply, answer, sent);
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
