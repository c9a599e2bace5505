import { sql } from 'kysely';
import type { GroupPoolTransactionsTable, Db } from '../../db/types.js';

export type PoolTransactionType = GroupPoolTransactionsTable['transaction_type'];

/** A change of one group's pool, as its pool ledger row will tell it. */
export interface PoolChange {
  groupId: number;
  /**
   * `pool_set` moves the pool's total (an administrator sizing the pool); a distribution
   * or reclaim moves what has been handed out to members.
   */
  type: PoolTransactionType;
  /**
   * Signed change of what is left in the pool: positive adds (a larger total, a reclaim),
   * negative takes away (a smaller total, a distribution).
   */
  amount: number;
  /** The member the credits went to or came from; none for `pool_set`. */
  userId?: number | null;
  operatorId?: number | null;
  reason?: string | null;
  now: string;
}

/** A pool as the writer leaves it or found it. */
export interface PoolState {
  total: number;
  used: number;
  remaining: number;
}

export interface PoolLedgerRow {
  id: number;
  group_id: number;
  transaction_type: PoolTransactionType;
  amount: number;
  pool_remaining_after: number;
  user_id: number | null;
  created_at: string;
}

export type PoolResult =
  | { ok: true; row: PoolLedgerRow; state: PoolState }
  /** Refused: the pool as it stands (undefined when the group does not exist). */
  | { ok: false; state: PoolState | undefined };

const stateOf = (r: { credits_pool: number; credits_pool_used: number }): PoolState => ({
  total: Number(r.credits_pool),
  used: Number(r.credits_pool_used),
  remaining: Number(r.credits_pool) - Number(r.credits_pool_used),
});

/**
 * The one writer of group pool balances and of the pool ledger. It changes the pool with
 * ONE conditional update — what is left never goes below zero (a distribution or a smaller
 * total succeeds only while the pool covers it) and a reclaim never returns more than has
 * been handed out — so concurrent changes serialise on the group row and can never
 * overdraw it. The ledger row, with what is left afterwards, is written in the caller's
 * transaction. Hence, for every group and at every moment, the pool ledger sums to
 * total − used.
 */
export async function applyPoolChange(trx: Db, c: PoolChange): Promise<PoolResult> {
  // A distribution only takes from the pool and a reclaim only gives back: a sign that
  // contradicts the type is a bug in the caller, never a request to honour.
  if ((c.type === 'group_distribute' && c.amount > 0) || (c.type === 'group_reclaim' && c.amount < 0)) {
    throw new Error(`pool change of type ${c.type} cannot move ${c.amount}`);
  }
  const movesTotal = c.type === 'pool_set';
  let update = trx
    .updateTable('user_groups')
    .set(
      movesTotal
        ? { credits_pool: sql<number>`credits_pool + ${c.amount}` }
        : { credits_pool_used: sql<number>`credits_pool_used - ${c.amount}` },
    )
    .where('id', '=', c.groupId);
  if (c.amount < 0) update = update.where(sql<boolean>`credits_pool - credits_pool_used >= ${-c.amount}`);
  else if (!movesTotal) update = update.where(sql<boolean>`credits_pool_used >= ${c.amount}`);
  const changed = await update.returning(['credits_pool', 'credits_pool_used']).executeTakeFirst();
  if (!changed) {
    const r = await trx
      .selectFrom('user_groups')
      .select(['credits_pool', 'credits_pool_used'])
      .where('id', '=', c.groupId)
      .executeTakeFirst();
    return { ok: false, state: r && stateOf(r) };
  }
  const state = stateOf(changed);
  const row = await trx
    .insertInto('group_pool_transactions')
    .values({
      group_id: c.groupId,
      transaction_type: c.type,
      amount: c.amount,
      pool_remaining_after: state.remaining,
      user_id: c.userId ?? null,
      operator_id: c.operatorId ?? null,
      reason: c.reason ?? null,
      created_at: c.now,
    })
    .returning(['id', 'group_id', 'transaction_type', 'amount', 'pool_remaining_after', 'user_id', 'created_at'])
    .executeTakeFirstOrThrow();
  return { ok: true, row, state };
}
