/*
 * Which calls are "auth calls": their 401 means wrong credentials or a dead refresh
 * token, never an expired access token, so they must not start the refresh flow.
 */
const AUTH_CALL = /^\/?auth\/(login[\w-]*|register|refresh|send-email-code|check-[\w-]+)(\?|$)/;

/** Where the server answers the JSON calls. */
export const API_BASE = '/api';

/** Strips the `/api` base so relative and absolute forms of a URL compare the same. */
function apiPath(url: string | undefined): string {
  if (!url) return '';
  return url.replace(/^https?:\/\/[^/]+/, '').replace(/^\/api(?=\/)/, '');
}

export function isAuthCall(url: string | undefined): boolean {
  return AUTH_CALL.test(apiPath(url).replace(/^\//, ''));
}

/** No timeout by default; 30 s for account and administration calls. */
export const SLOW_AREA_TIMEOUT_MS = 30_000;
export const REFRESH_TIMEOUT_MS = 10_000;
export const SLOW_REQUEST_MS = 5_000;

export function timeoutFor(url: string | undefined): number {
  return url && (url.includes('/auth/') || url.includes('/admin/')) ? SLOW_AREA_TIMEOUT_MS : 0;
}

/** A random id per request; works outside secure contexts, where `crypto.randomUUID` is missing. */
export function createRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
