export type PoolOperation = 'distribute' | 'reclaim';

/**
 * Whether a transfer can succeed: a distribution cannot exceed what the pool has left,
 * a reclaim cannot take more than the member holds. `null` when it can.
 */
export function poolTransferProblem(
  operation: PoolOperation,
  amount: number | null | undefined,
  poolRemaining: number,
  memberBalance: number | undefined,
): 'poolShort' | 'memberShort' | null {
  const value = amount ?? 0;
  if (operation === 'distribute' && value > poolRemaining) return 'poolShort';
  if (operation === 'reclaim' && memberBalance !== undefined && value > memberBalance) return 'memberShort';
  return null;
}
