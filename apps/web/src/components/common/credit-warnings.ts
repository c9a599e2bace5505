import { CREDITS_EXPIRY_WARNING_DAYS, type UserCreditsStats } from '@aiplatform/contracts';

/** What may be wrong with a user's credits, most serious first. */
export type CreditWarningKind = 'expired' | 'expiring' | 'low';

export interface CreditWarning {
  kind: CreditWarningKind;
  /** Whole days left before the credits expire (expiring only). */
  days: number | null;
  remaining: number;
  threshold: number;
}

type CreditFacts = Pick<
  UserCreditsStats,
  'is_expired' | 'remaining_days' | 'credits_remaining' | 'low_credits_threshold' | 'is_low'
>;

/** Not yet expired, but within the warning period (a date that never comes never warns). */
export function isExpiringSoon(stats: CreditFacts): boolean {
  return !stats.is_expired && stats.remaining_days !== null && stats.remaining_days <= CREDITS_EXPIRY_WARNING_DAYS;
}

/**
 * The warnings the dashboard and the header bell show for these credits. Expired credits
 * cannot be spent at all, so that one warning says everything: a low balance on top of
 * it would only be noise. Otherwise expiring soon and a low balance may both apply.
 */
export function creditWarnings(stats: CreditFacts | null | undefined): CreditWarning[] {
  if (!stats) return [];
  const facts = { remaining: stats.credits_remaining, threshold: stats.low_credits_threshold };
  if (stats.is_expired) return [{ kind: 'expired', days: null, ...facts }];
  const warnings: CreditWarning[] = [];
  if (isExpiringSoon(stats))
    warnings.push({ kind: 'expiring', days: Math.max(0, stats.remaining_days ?? 0), ...facts });
  if (stats.is_low) warnings.push({ kind: 'low', days: null, ...facts });
  return warnings;
}
