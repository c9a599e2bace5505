/** How long a new share link lasts, as the dialog offers it. */
export const SHARE_EXPIRIES = ['never', 'day', 'week', 'month'] as const;
export type ShareExpiry = (typeof SHARE_EXPIRIES)[number];

const DAYS: Record<ShareExpiry, number | null> = { never: null, day: 1, week: 7, month: 30 };

/** The expiry the server is sent: null for never, else that many days from `now`. */
export function expiryAt(choice: ShareExpiry, now: Date): string | null {
  const days = DAYS[choice];
  return days === null ? null : new Date(now.getTime() + days * 24 * 60 * 60 * 1000).toISOString();
}

/** The address to copy: the server's, made absolute on this site when it answered a path. */
export function absoluteShareUrl(url: string, origin: string): string {
  return url.startsWith('/') ? `${origin}${url}` : url;
}

/** A link's state as its author's list shows it. */
export function shareStatus(
  link: { revoked: boolean; expires_at: string | null },
  now: Date,
): 'active' | 'expired' | 'revoked' {
  if (link.revoked) return 'revoked';
  if (link.expires_at !== null && new Date(link.expires_at).getTime() <= now.getTime()) return 'expired';
  return 'active';
}
