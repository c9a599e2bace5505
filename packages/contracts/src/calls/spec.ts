import type { z } from 'zod';
import type { Action } from '../admin/access.js';

/**
 * Who may make a call, checked by the route before anything else about the request
 * (its body and query are validated only afterwards, so an anonymous caller learns
 * nothing about them):
 * - `public`: anyone;
 * - `optional`: anyone, and the caller is recognised when they send a live token;
 * - `signedIn`: any active account;
 * - an action of the policy map: an account that holds it somewhere (everywhere or in
 *   its own group). Which objects it reaches is the service's per-object check.
 */
export type Access = 'public' | 'optional' | 'signedIn' | Action;

/**
 * One JSON call: method, path (with `:name` parameters), access, body, query and the
 * `data` it answers with. The server registers its route from this description and the
 * web client calls through it, so the two cannot drift apart.
 */
export interface CallSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  access: Access;
  body?: z.ZodType;
  query?: z.ZodType;
  /**
   * Path parameters other than row ids. Every parameter not named here is a row id
   * (a positive 32-bit integer).
   */
  params?: z.ZodType;
  response: z.ZodType;
  /** Lists answer `pagination` beside `data`. */
  paginated?: boolean;
  /** Created resources answer 201. */
  status?: 201;
  /**
   * The call may answer with server-sent events once its checks pass (`response` then
   * describes only its JSON answer, when the caller asks for no stream); its refusals are
   * ordinary error envelopes.
   */
  stream?: true;
  /** One line for the API documentation, where the path and schemas do not say enough. */
  summary?: string;
}

/** Fills the `:name` parameters of a call's path. */
export function callPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** The `:name` parameters of a path template, e.g. `'id'` for `/admin/users/:id`. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;
