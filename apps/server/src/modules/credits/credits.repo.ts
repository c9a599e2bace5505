import type { Kysely } from 'kysely';
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
