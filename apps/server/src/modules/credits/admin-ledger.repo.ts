import type { TransactionType } from '@aiplatform/contracts';
import type { Kysely } from 'kysely';
import type { Database, Db } from '../../db/types.js';

/** A user's ledger as administrators read it: with the operator's name and the reason. */
export class AdminLedgerRepo {
  constructor(private readonly db: Kysely<Database>) {}

  private base(db: Db, userId: number, type?: TransactionType) {
    let q = db.selectFrom('credit_transactions as t').where('t.user_id', '=', userId);
    if (type) q = q.where('t.transaction_type', '=', type);
    return q;
  }

  async page(userId: number, type: TransactionType | undefined, page: number, limit: number) {
    const [rows, count] = await Promise.all([
      this.base(this.db, userId, type)
        .leftJoin('users as op', 'op.id', 't.operator_id')
        .leftJoin('ai_models as m', 'm.name', 't.model_name')
        .select([
          't.id',
          't.user_id',
          't.transaction_type',
          't.amount',
          't.balance_after',
          't.description',
          't.operator_id',
          't.reason',
          't.created_at',
          'op.username as operator_username',
          't.model_name',
          'm.display_name as model_display_name',
        ])
        .orderBy('t.id', 'desc')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute(),
      this.base(this.db, userId, type)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  /** Moves a user's credit expiry (the caller holds the user's row lock). */
  async setExpiry(userId: number, expireAt: string, db: Db): Promise<void> {
    await db.updateTable('users').set({ credits_expire_at: expireAt }).where('id', '=', userId).execute();
  }
}
