/**
 * A redirect answer from a model's endpoint. Keys travel in request headers
 * (`Authorization`, `x-api-key`, `x-goog-api-key`), and fetch carries the custom ones
 * along to wherever a redirect points, so a redirect is never followed: the
 * administrator sets the final address instead.
 */
export class RedirectRefusedError extends Error {
  override readonly name = 'RedirectRefusedError';
  constructor(
    readonly statusCode: number,
    /** Where the endpoint pointed (resolved against the request's address), or '' when it did not say. */
    readonly location: string,
  ) {
    super(`The endpoint answered with a redirect (HTTP ${statusCode})${location ? ` to ${location}` : ''}`);
  }
}

/** The absolute address a redirect answer points to, or '' without a usable Location header. */
export function redirectTarget(location: string | string[] | null | undefined, requested: string | URL): string {
  const value = Array.isArray(location) ? location[0] : location;
  if (!value) return '';
  const base = String(requested);
  return URL.canParse(value, base) ? new URL(value, base).href : value;
}

export const isRedirect = (status: number | undefined): boolean =>
  status !== undefined && status >= 300 && status < 400 && status !== 304;

const requestUrl = (input: Parameters<typeof fetch>[0]): string =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;

/**
 * The fetch handed to the AI SDK providers: the platform's own fetch, except that a
 * redirect is returned instead of followed, and turned into a RedirectRefusedError.
 */
export const upstreamFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, { ...init, redirect: 'manual' });
  if (!isRedirect(res.status)) return res;
  // Nothing of the redirect's body is needed; release the connection.
  await res.body?.cancel().catch(() => undefined);
  throw new RedirectRefusedError(res.status, redirectTarget(res.headers.get('location'), requestUrl(input)));
};
