import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Db } from '../users/users.repo.js';

export interface LedgerEntry {
  user_id: number;
  transaction_type: string;
  amount: number;
  balance_after: number;
  description: string;
  operator_id?: number | null;
  reference_id?: string | null;
  created_at: string;
}

export class CreditsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Must run inside the transaction that changed the balance (DESIGN §5). */
  async appendLedger(entry: LedgerEntry, db: Db): Promise<void> {
    await db.insertInto('credit_transactions').values(entry).execute();
  }

  /**
   * Reserves `cost` with ONE conditional update (DESIGN §5): it succeeds only while the
   * balance covers `required` (≥ cost) and the credits have not expired. Concurrent
   * reservations serialize on the row, so the balance can never be overdrawn.
   */
  async tryReserve(db: Db, userId: number, cost: number, required: number, now: string): Promise<boolean> {
    const r = await db
      .updateTable('users')
      .set({ credits_used: sql`credits_used + ${cost}` })
      .where('id', '=', userId)
      .where(sql<boolean>`credits_quota - credits_used >= ${required}`)
      .where((eb) => eb.or([eb('credits_expire_at', 'is', null), eb('credits_expire_at', '>', now)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Gives a reservation back (a refund); the caller writes the ledger row in the same transaction. */
  async release(db: Db, userId: number, cost: number): Promise<void> {
    await db
      .updateTable('users')
      .set({ credits_used: sql`credits_used - ${cost}` })
      .where('id', '=', userId)
      .execute();
  }

  async balance(db: Db, userId: number): Promise<{ remaining: number; expireAt: string | null }> {
    const r = await db
      .selectFrom('users')
      .select(['credits_quota', 'credits_used', 'credits_expire_at'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    return { remaining: r.credits_quota - r.credits_used, expireAt: r.credits_expire_at };
  }

  /** What a chat turn was charged (0 when nothing was). */
  async chargeOf(referenceId: string): Promise<number> {
    const r = await this.db
      .selectFrom('credit_transactions')
      .select('amount')
      .where('transaction_type', '=', 'chat_consume')
      .where('reference_id', '=', referenceId)
      .executeTakeFirst();
    return r ? -r.amount : 0;
  }

  async historyPage(userId: number, page: number, limit: number) {
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom('credit_transactions')
        .select(['id', 'created_at', 'transaction_type', 'amount', 'balance_after', 'description'])
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute(),
      this.db
        .selectFrom('credit_transactions')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  async ledgerSum(userId: number): Promise<number> {
    const r = await this.db
      .selectFrom('credit_transactions')
      .select((eb) => eb.fn.sum<string | number | null>('amount').as('s'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(r.s ?? 0);
  }
}
