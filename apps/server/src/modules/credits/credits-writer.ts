import type { TransactionType } from '@aiplatform/contracts';
import { sql } from 'kysely';
import { InputError } from '../../lib/http/errors.js';
import type { Db } from '../../db/types.js';

/** Largest credits quota an account can hold (PostgreSQL `integer`). */
export const CREDITS_QUOTA_MAX = 2_147_483_647;

/** A change of one user's balance, as its ledger row will tell it. */
export interface CreditChange {
  userId: number;
  type: TransactionType;
  /** Signed change of the balance: positive adds, negative takes away. */
  amount: number;
  /** An i18n key (`server.ledger.*`) the reader's language turns into text. */
  description: string;
  now: string;
  operatorId?: number | null;
  reason?: string | null;
  /** Ties the row to its cause (the answer of a chat turn); unique per type. */
  referenceId?: string | null;
  /** A chat charge or refund: what the credits went on, named in the credit history. */
  chat?: { conversationId: string; modelName: string };
  /** A charge or refund of a request through a personal API key: the key and the model. */
  api?: { keyId: number; modelName: string };
  /** A chat charge also needs this much balance held, and credits that have not expired. */
  requireBalance?: number;
  requireUnexpired?: boolean;
}

export interface LedgerRow {
  id: number;
  user_id: number;
  transaction_type: string;
  amount: number;
  balance_after: number;
  description: string;
  operator_id: number | null;
  reason: string | null;
  created_at: string;
}

export type CreditResult = { ok: true; row: LedgerRow } | { ok: false; balance: number; expireAt: string | null };

/*
 * Chat charges, their refunds and documents' embedding charges move `credits_used` (so
 * "used" means spent on models);
 * every grant or removal moves `credits_quota`. The balance is quota − used either way.
 */
const CONSUMPTION: ReadonlySet<TransactionType> = new Set<TransactionType>([
  'chat_consume',
  'system_refund',
  'embedding',
]);

/**
 * The one writer of the credit ledger. It changes the balance with ONE conditional
 * update — a removal succeeds only while the balance covers it, so concurrent removals
 * serialise on the row and can never overdraw — and writes the ledger row with the
 * resulting balance in the caller's transaction. Hence, for every user and at every
 * moment, the ledger sum equals quota − used.
 */
export async function applyCreditChange(trx: Db, c: CreditChange): Promise<CreditResult> {
  const consumption = CONSUMPTION.has(c.type);
  const needed = Math.max(c.requireBalance ?? 0, -c.amount, 0);
  let update = trx
    .updateTable('users')
    .set(
      consumption
        ? { credits_used: sql<number>`credits_used - ${c.amount}` }
        : { credits_quota: sql<number>`credits_quota + ${c.amount}` },
    )
    .where('id', '=', c.userId);
  if (needed > 0) update = update.where(sql<boolean>`credits_quota - credits_used >= ${needed}`);
  // The quota is a 32-bit integer on PostgreSQL; a grant past it is bad input, not a crash.
  const grant = !consumption && c.amount > 0;
  if (grant) update = update.where(sql<boolean>`credits_quota <= ${CREDITS_QUOTA_MAX - c.amount}`);
  if (c.requireUnexpired) {
    update = update.where((eb) => eb.or([eb('credits_expire_at', 'is', null), eb('credits_expire_at', '>', c.now)]));
  }
  const changed = await update.returning(sql<number>`credits_quota - credits_used`.as('balance')).executeTakeFirst();
  if (!changed) {
    if (grant) throw new InputError(['validation.amount.quotaTooLarge']);
    const r = await trx
      .selectFrom('users')
      .select(['credits_quota', 'credits_used', 'credits_expire_at'])
      .where('id', '=', c.userId)
      .executeTakeFirst();
    return { ok: false, balance: r ? r.credits_quota - r.credits_used : 0, expireAt: r?.credits_expire_at ?? null };
  }
  const row = await trx
    .insertInto('credit_transactions')
    .values({
      user_id: c.userId,
      transaction_type: c.type,
      amount: c.amount,
      balance_after: Number(changed.balance),
      description: c.description,
      operator_id: c.operatorId ?? null,
      reason: c.reason ?? null,
      reference_id: c.referenceId ?? null,
      conversation_id: c.chat?.conversationId ?? null,
      model_name: c.chat?.modelName ?? c.api?.modelName ?? null,
      ...(c.api ? { source: 'api' as const, api_key_id: c.api.keyId } : {}),
      created_at: c.now,
    })
    .returning([
      'id',
      'user_id',
      'transaction_type',
      'amount',
      'balance_after',
      'description',
      'operator_id',
      'reason',
      'created_at',
    ])
    .executeTakeFirstOrThrow();
  return { ok: true, row };
}
