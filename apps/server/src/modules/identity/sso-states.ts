import { randomToken, sha256 } from '../../lib/auth/secrets.js';
import { AppError } from '../../lib/http/errors.js';
import { type Clock, addSeconds, iso } from '../../lib/runtime/clock.js';
import type { SsoStateRow, SsoTicketsRepo } from './sso-tickets.repo.js';

/** How long a sign-in may stay at the provider between start and callback. */
export const SSO_STATE_TTL_SECONDS = 600;

/**
 * This site's own path to land on after signing in, or '/'. Only a path under this origin
 * is kept: it must start with a single '/', and '//host' or '/\host' (which browsers read
 * as another site) or anything with a scheme falls back to '/': an open redirect would let
 * a link to our sign-in send people anywhere after it.
 */
export function safeRedirect(value: string | undefined | null): string {
  if (!value || value.length > 2000 || !value.startsWith('/')) return '/';
  if (value.startsWith('//') || value.startsWith('/\\')) return '/';
  // Control characters and backslashes have no place in a path we redirect to.
  if ([...value].some((ch) => ch < ' ' || ch === '\u007f' || ch === '\\')) return '/';
  try {
    const base = 'http://site.invalid';
    const url = new URL(value, base);
    if (url.origin !== base) return '/';
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return '/';
  }
}

/**
 * The stored form of a tab's binding value, or null for none. A value that is not what the
 * sign-in page makes (43 base64url characters) counts as none: the exchange, which the page
 * always binds, then refuses it.
 */
export function bindingHash(binding: string | undefined | null): string | null {
  return binding && /^[A-Za-z0-9_-]{43}$/.test(binding) ? sha256(binding) : null;
}

export interface StartedSignIn {
  /** The value sent to the provider and expected back at the callback. */
  state: string;
}

/**
 * What a sign-in remembers between start and callback (nonce, PKCE verifier, where to land),
 * in the database under the hash of a random `state`, so any instance can finish it. A state
 * is good once and for ten minutes.
 */
export class SsoStates {
  constructor(
    private readonly repo: SsoTicketsRepo,
    private readonly clock: Clock,
  ) {}

  /**
   * `binding`: the random value the starting browser tab keeps (see `bindingHash`); the
   * exchange at the end must present it again. `preview_for`: the administrator a test
   * sign-in is for (the callback then signs nobody in).
   */
  async begin(
    row: Omit<SsoStateRow, 'expires_at' | 'binding_hash' | 'preview_for'> & { preview_for?: number | null },
    binding?: string,
  ): Promise<StartedSignIn> {
    const state = randomToken(32);
    const expiresAt = iso(addSeconds(this.clock.now(), SSO_STATE_TTL_SECONDS));
    await this.repo.insertState(sha256(state), {
      ...row,
      redirect: safeRedirect(row.redirect),
      preview_for: row.preview_for ?? null,
      expires_at: expiresAt,
      binding_hash: bindingHash(binding),
    });
    return { state };
  }

  /** Spends the state; unknown, used, expired or another provider's: SSO_STATE_INVALID. */
  async take(state: string | undefined, providerId: number): Promise<SsoStateRow> {
    if (!state) throw new AppError('SSO_STATE_INVALID');
    const row = await this.repo.takeState(sha256(state));
    if (!row || row.expires_at <= iso(this.clock.now()) || row.provider_id !== providerId) {
      throw new AppError('SSO_STATE_INVALID');
    }
    return row;
  }
}
