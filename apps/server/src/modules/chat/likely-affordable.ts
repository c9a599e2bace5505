import type { UserRow } from '../../db/types.js';

/**
 * Whether the sender's balance as last read (the session's copy of the user, perhaps a
 * moment old) covers the turn. Only decides whether the answer may be asked for early:
 * the reservation stays the authority, and a wrong guess costs one aborted upstream call.
 */
export function likelyAffordable(user: UserRow, required: number, now: string): boolean {
  if (required === 0) return true;
  if (user.credits_expire_at !== null && user.credits_expire_at <= now) return false;
  return user.credits_quota - user.credits_used >= required;
}
