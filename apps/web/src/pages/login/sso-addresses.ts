/* The addresses of a sign-in through a provider, read and written by the sign-in pages. */

/**
 * Where a provider button leads: the server's start address, asked to come back to `target`,
 * bound to this tab by `binding` (see `newSsoBinding`).
 */
export function ssoStartUrl(slug: string, target: string, binding: string): string {
  const query = new URLSearchParams({ redirect: target, binding });
  return `/api/auth/sso/${encodeURIComponent(slug)}/start?${query.toString()}`;
}

/** 32 random bytes as base64url (43 characters): the value a tab keeps while it signs in. */
export function newSsoBinding(random: (bytes: Uint8Array) => Uint8Array = (b) => crypto.getRandomValues(b)): string {
  const bytes = random(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/**
 * The error code a failed provider sign-in sent back (`/login?sso_error=CODE`), when it is
 * one: anything else in the address is ignored rather than shown.
 */
export function ssoErrorCode(search: string): string | null {
  const code = new URLSearchParams(search).get('sso_error');
  return code && /^[A-Z][A-Z_]{1,63}$/.test(code) ? code : null;
}

/** The one-time code and the page to land on, from the fragment the callback redirected to. */
export function ssoCompletion(hash: string): { code: string | null; redirect: string | null } {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  return { code: params.get('code'), redirect: params.get('redirect') };
}
