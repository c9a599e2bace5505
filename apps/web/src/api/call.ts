import {
  type API_CALLS,
  type CallBody,
  type CallName,
  type CallQuery,
  type CallResult,
  type PaginatedCallName,
  type Pagination,
  type PathParamNames,
  type SuccessEnvelope,
  callPath,
} from '@aiplatform/contracts';
import type { AxiosRequestConfig } from 'axios';
// Methods and paths only: the table's schemas (and zod) stay out of the bundle.
import CALL_ROUTES from 'virtual:call-routes';
import { requestEnvelope } from './http';

type PathOf<N extends CallName> = (typeof API_CALLS)[N]['path'];

type ParamsOption<N extends CallName> = [PathParamNames<PathOf<N>>] extends [never]
  ? { params?: never }
  : { params: Record<PathParamNames<PathOf<N>>, string | number> };
type BodyOption<N extends CallName> = [CallBody<N>] extends [never] ? { body?: never } : { body: CallBody<N> };
type QueryOption<N extends CallName> = [CallQuery<N>] extends [never] ? { query?: never } : { query?: CallQuery<N> };

export type CallOptions<N extends CallName> = ParamsOption<N> &
  BodyOption<N> &
  QueryOption<N> & {
    headers?: Record<string, string>;
    signal?: AbortSignal;
    /** Leave every failure to the caller (no toast from the client). */
    silent?: boolean;
    /** Leave a 401 to the caller instead of refreshing the token (start-up check, logout). */
    skipAuthRefresh?: boolean;
  };

/** Options may be left out when none of them is required. */
type OptionsArgs<N extends CallName> =
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- "are all options optional?"
  {} extends CallOptions<N> ? [options?: CallOptions<N>] : [options: CallOptions<N>];

export interface PageResult<N extends PaginatedCallName> {
  items: CallResult<N>;
  pagination: Pagination;
}

function configFor(name: CallName, options: CallOptions<CallName>): AxiosRequestConfig {
  const route = CALL_ROUTES[name];
  const params = (options.params ?? {}) as Record<string, string | number>;
  return {
    method: route.method,
    url: callPath(route.path, params),
    ...(options.body !== undefined ? { data: options.body } : {}),
    ...(options.query !== undefined ? { params: withoutEmpty(options.query) } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.silent ? { silent: true } : {}),
    ...(options.skipAuthRefresh ? { skipAuthRefresh: true } : {}),
  };
}

/** Empty filters are left out of the query string rather than sent as `search=`. */
export function withoutEmpty(query: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(query).filter(([, value]) => value !== undefined && value !== null && value !== ''),
  );
}

/** One JSON call, typed by its description in the contracts: resolves to the envelope's `data`. */
export async function call<N extends CallName>(name: N, ...[options]: OptionsArgs<N>): Promise<CallResult<N>> {
  const envelope = await requestEnvelope<CallResult<N>>(configFor(name, (options ?? {}) as CallOptions<CallName>));
  return envelope.data;
}

/** One JSON call's whole envelope, for the confirmation `message` the server answers with. */
export function callEnvelope<N extends CallName>(
  name: N,
  ...[options]: OptionsArgs<N>
): Promise<SuccessEnvelope<CallResult<N>>> {
  return requestEnvelope<CallResult<N>>(configFor(name, (options ?? {}) as CallOptions<CallName>));
}

/** A paginated list: the rows and the `pagination` the server answered beside them. */
export async function callPage<N extends PaginatedCallName>(name: N, options: CallOptions<N>): Promise<PageResult<N>> {
  const envelope = await requestEnvelope<CallResult<N>>(configFor(name, options as CallOptions<CallName>));
  const items = envelope.data;
  const pagination = envelope.pagination ?? fallbackPagination(Array.isArray(items) ? items.length : 0);
  return { items, pagination };
}

/** A list answered without `pagination` is one complete page. */
function fallbackPagination(count: number): Pagination {
  return { page: 1, limit: count, total: count, totalPages: 1, hasNext: false, hasPrev: false };
}

/** The header that makes a credit or pool operation apply at most once. */
export function idempotencyHeaders(key: string): Record<string, string> {
  return { 'Idempotency-Key': key };
}
