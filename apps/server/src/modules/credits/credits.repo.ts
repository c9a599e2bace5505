import { type Kysely, sql } from 'kysely';
import type { Database, Db } from '../../db/types.js';

export class CreditsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * A free chat still needs the settings' minimum balance and unexpired credits: one
   * conditional no-op update checks both under the row lock, without a ledger row.
   */
  async holdsAtLeast(db: Db, userId: number, required: number, now: string): Promise<boolean> {
    const r = await db
      .updateTable('users')
      .set({ credits_used: sql`credits_used` })
      .where('id', '=', userId)
      .where(sql<boolean>`credits_quota - credits_used >= ${required}`)
      .where((eb) => eb.or([eb('credits_expire_at', 'is', null), eb('credits_expire_at', '>', now)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
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
  async chargeOf(referenceId: string, db: Db = this.db): Promise<number> {
    const r = await db
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
        .selectFrom('credit_transactions as t')
        // The user's own conversation only: a ledger line never reveals someone else's title,
        // nor that of one they deleted under legal hold (hidden, not gone).
        .leftJoin('conversations as c', (join) =>
          join
            .onRef('c.id', '=', 't.conversation_id')
            .onRef('c.user_id', '=', 't.user_id')
            .on('c.hidden_at', 'is', null),
        )
        .leftJoin('ai_models as m', 'm.name', 't.model_name')
        .select([
          't.id',
          't.created_at',
          't.transaction_type',
          't.amount',
          't.balance_after',
          't.description',
          't.conversation_id',
          't.model_name',
          'c.title as conversation_title',
          'm.display_name as model_display_name',
        ])
        .where('t.user_id', '=', userId)
        .orderBy('t.id', 'desc')
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
