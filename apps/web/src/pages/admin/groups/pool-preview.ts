import type { PoolOperation } from './pool-transfer-check';

/** The pool's and the member's credits before and after a transfer, shown before it is sent. */
export interface PoolTransferPreview {
  pool: { from: number; to: number };
  /** Absent until a member is chosen. */
  member?: { from: number; to: number };
}

/**
 * What a distribution or reclaim would leave: credits leave the pool for the member or come
 * back. An amount the check refuses still shows its arithmetic, floored at zero.
 */
export function previewPoolTransfer(
  operation: PoolOperation,
  amount: number | null | undefined,
  poolRemaining: number,
  memberBalance: number | undefined,
): PoolTransferPreview {
  const value = Math.max(0, amount ?? 0);
  const delta = operation === 'distribute' ? value : -value;
  return {
    pool: { from: poolRemaining, to: Math.max(0, poolRemaining - delta) },
    ...(memberBalance === undefined ? {} : { member: { from: memberBalance, to: Math.max(0, memberBalance + delta) } }),
  };
}

/** A new pool size: what is left to distribute moves with it (what is distributed stays). */
export function previewPoolSize(
  group: { credits_pool: number; credits_pool_used: number },
  size: number | null,
): { total: { from: number; to: number }; remaining: { from: number; to: number } } {
  const to = size ?? group.credits_pool;
  return {
    total: { from: group.credits_pool, to },
    remaining: {
      from: group.credits_pool - group.credits_pool_used,
      to: Math.max(0, to - group.credits_pool_used),
    },
  };
}
