/**
 * How an uploaded image is loaded. Answers carry signed addresses (`?exp=…&sig=…`, valid for
 * minutes) that a plain <img> can load; once one has expired (a page left open), the bare
 * address is fetched with the bearer token instead.
 */

/** A path of this site (one leading slash), never another host. */
export const isSameOriginPath = (url: string): boolean => /^\/(?!\/)/.test(url);

/** True for a same-origin address that carries its own signature. */
export function isSignedImageUrl(url: string): boolean {
  if (!isSameOriginPath(url)) return false;
  const query = url.split('?')[1];
  return query !== undefined && new URLSearchParams(query).has('sig');
}

/** The address without its signature, for fetching with the bearer token. */
export const bareImageUrl = (url: string): string => url.split(/[?#]/)[0]!;
