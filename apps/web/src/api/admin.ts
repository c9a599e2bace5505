import {
  ADMIN_CALLS,
  type AdminCallBody,
  type AdminCallName,
  type AdminCallQuery,
  type AdminCallResult,
  type CallSpec,
  type Pagination,
  adminCallPath,
} from '@aiplatform/contracts';
import type { AxiosRequestConfig } from 'axios';
import { requestEnvelope } from './http';

type PathOf<N extends AdminCallName> = (typeof ADMIN_CALLS)[N]['path'];

/** The `:name` parameters of a path template, e.g. `'id'` for `/admin/users/:id`. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

type ParamsOption<N extends AdminCallName> = [ParamNames<PathOf<N>>] extends [never]
  ? { params?: never }
  : { params: Record<ParamNames<PathOf<N>>, string | number> };
type BodyOption<N extends AdminCallName> = [AdminCallBody<N>] extends [never]
  ? { body?: never }
  : { body: AdminCallBody<N> };
type QueryOption<N extends AdminCallName> = [AdminCallQuery<N>] extends [never]
  ? { query?: never }
  : { query?: AdminCallQuery<N> };

export type AdminCallOptions<N extends AdminCallName> = ParamsOption<N> &
  BodyOption<N> &
  QueryOption<N> & {
    headers?: Record<string, string>;
    signal?: AbortSignal;
    /** Leave every failure to the caller (no toast from the client). */
    silent?: boolean;
  };

/** Options may be left out when none of them is required. */
type OptionsArgs<N extends AdminCallName> =
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- "are all options optional?"
  {} extends AdminCallOptions<N> ? [options?: AdminCallOptions<N>] : [options: AdminCallOptions<N>];

/** Calls whose answer carries `pagination` beside `data`. */
export type PaginatedCallName = {
  [N in AdminCallName]: (typeof ADMIN_CALLS)[N] extends { paginated: true } ? N : never;
}[AdminCallName];

export interface AdminPageResult<N extends PaginatedCallName> {
  items: AdminCallResult<N>;
  pagination: Pagination;
}

function configFor(name: AdminCallName, options: AdminCallOptions<AdminCallName>): AxiosRequestConfig {
  const spec: CallSpec = ADMIN_CALLS[name];
  const params = (options.params ?? {}) as Record<string, string | number>;
  return {
    method: spec.method,
    url: adminCallPath(spec.path, params),
    ...(options.body !== undefined ? { data: options.body } : {}),
    ...(options.query !== undefined ? { params: withoutEmpty(options.query) } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.silent ? { silent: true } : {}),
  };
}

/** Empty filters are left out of the query string rather than sent as `search=`. */
export function withoutEmpty(query: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(query).filter(([, value]) => value !== undefined && value !== null && value !== ''),
  );
}

/** One JSON admin call, typed by its description in the contracts: resolves to the envelope's `data`. */
export async function adminCall<N extends AdminCallName>(
  name: N,
  ...[options]: OptionsArgs<N>
): Promise<AdminCallResult<N>> {
  const envelope = await requestEnvelope<AdminCallResult<N>>(
    configFor(name, (options ?? {}) as AdminCallOptions<AdminCallName>),
  );
  return envelope.data;
}

/** A paginated admin list: the rows and the `pagination` the server answered beside them. */
export async function adminPage<N extends PaginatedCallName>(
  name: N,
  options: AdminCallOptions<N>,
): Promise<AdminPageResult<N>> {
  const envelope = await requestEnvelope<AdminCallResult<N>>(
    configFor(name, options as AdminCallOptions<AdminCallName>),
  );
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
