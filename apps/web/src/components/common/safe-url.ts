/**
 * Accepts only URLs that cannot run script when used as a link, image or icon: http(s),
 * same-origin paths and inline raster/SVG images. Anything else becomes ''.
 */
export function safeUrl(value: string | null | undefined): string {
  const url = value?.trim() ?? '';
  if (!url) return '';
  if (
    /^https?:\/\//i.test(url) ||
    /^\/(?!\/)/.test(url) ||
    /^data:image\/(png|jpe?g|gif|webp|svg\+xml|x-icon|vnd\.microsoft\.icon);/i.test(url)
  )
    return url;
  return '';
}

/** Only absolute http(s) URLs may be opened in a new tab. */
export function safeExternalUrl(value: string | null | undefined): string {
  const url = value?.trim() ?? '';
  return /^https?:\/\//i.test(url) ? url : '';
}
