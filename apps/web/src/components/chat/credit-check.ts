import { LIMITS } from '@aiplatform/contracts';

/** The part of GET /chat/credits the check reads; `null` when the balance is not known. */
export interface CreditBalance {
  remaining: number;
  isExpired?: boolean;
}

export type CreditCheck =
  | { ok: true; required: number; balance: number }
  | { ok: false; reason: 'unknown' | 'insufficient' | 'expired'; required: number; balance: number | null };

/** A model's price per chat; models without one cost the default. */
export function creditsPerChat(model: { credits_per_chat?: number | null } | null | undefined): number {
  const value = model?.credits_per_chat;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : LIMITS.defaultCreditsPerChat;
}

/**
 * The remaining credits must cover the model's credits per chat. An unknown
 * balance counts as insufficient, and expired credits cannot be spent.
 */
export function checkCredits(
  balance: CreditBalance | null | undefined,
  model: { credits_per_chat?: number | null } | null | undefined,
): CreditCheck {
  const required = creditsPerChat(model);
  if (!balance || typeof balance.remaining !== 'number' || !Number.isFinite(balance.remaining))
    return { ok: false, reason: 'unknown', required, balance: null };
  if (balance.isExpired) return { ok: false, reason: 'expired', required, balance: balance.remaining };
  if (balance.remaining < required) return { ok: false, reason: 'insufficient', required, balance: balance.remaining };
  return { ok: true, required, balance: balance.remaining };
}
