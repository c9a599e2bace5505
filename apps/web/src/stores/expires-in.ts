const EXPIRES_IN = /^(\d+)([smhd])$/;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** The server's default access-token lifetime, used when `expiresIn` cannot be read. */
export const DEFAULT_TOKEN_LIFETIME_MS = 12 * UNIT_MS.h;

/** Parses lifetimes such as `12h`, `30m`, `7d` or `45s` into milliseconds (12 h when unreadable). */
export function parseExpiresIn(value: unknown): number {
  if (typeof value !== 'string') return DEFAULT_TOKEN_LIFETIME_MS;
  const match = EXPIRES_IN.exec(value.trim());
  if (!match) return DEFAULT_TOKEN_LIFETIME_MS;
  const amount = Number(match[1]);
  const unit = match[2] as keyof typeof UNIT_MS;
  return amount * UNIT_MS[unit];
}

/** A token counts as expired once its recorded expiry has passed (unknown expiry: not expired). */
export function isTokenExpired(expiresAt: number | null, now: number = Date.now()): boolean {
  return expiresAt !== null && expiresAt <= now;
}
