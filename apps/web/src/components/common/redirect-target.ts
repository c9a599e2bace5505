/** Where signing in leads when no page asked for it (or the one that asked is not acceptable). */
export const DEFAULT_AFTER_SIGN_IN = '/dashboard';

/** The query parameter on /login that names the page to return to. */
export const REDIRECT_PARAM = 'redirect';

// Only the path of the parsed URL is kept, and the parse must stay on this made-up origin.
const BASE = 'http://app.invalid';
// Returning to a sign-in screen after signing in would only bounce on to the dashboard.
const GUEST_PAGES = new Set(['/login', '/register']);

/**
 * The in-app page a sign-in may return to, or null. Accepted: a path starting with a single
 * `/` that stays on this origin and is not a sign-in screen. The answer is the normalised
 * form (`/a/../b` becomes `/b`), so what was checked is exactly what gets opened.
 */
export function safeRedirectTarget(value: string | null | undefined): string | null {
  // `//host` and `/\host` are read by browsers as another host.
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return null;
  }
  // Tabs and newlines are dropped while parsing, so `/\t/host` ends up on another origin.
  if (url.origin !== BASE) return null;
  // `/.//host` normalises to `//host`.
  if (url.pathname.startsWith('//')) return null;
  // Routes match regardless of case and trailing slash.
  const page = url.pathname.toLowerCase().replace(/\/+$/, '');
  if (GUEST_PAGES.has(page)) return null;
  return url.pathname + url.search + url.hash;
}

/** /login, asking to come back to `target` afterwards unless signing in leads there anyway. */
export function loginPathFor(target: string): string {
  const safe = safeRedirectTarget(target);
  if (!safe || safe === DEFAULT_AFTER_SIGN_IN) return '/login';
  return `/login?${new URLSearchParams({ [REDIRECT_PARAM]: safe }).toString()}`;
}

/** Where to go after signing in, given the search part (`?redirect=…`) of the /login URL. */
export function afterSignInPath(search: string): string {
  return safeRedirectTarget(new URLSearchParams(search).get(REDIRECT_PARAM)) ?? DEFAULT_AFTER_SIGN_IN;
}
