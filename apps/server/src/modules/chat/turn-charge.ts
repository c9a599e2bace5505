import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import { isUniqueViolation } from '../../lib/data/db-errors.js';
import { CapReached, recordCapReached, releaseCaps, reserveWithinCaps } from '../caps/cap-guard.js';
import type { CreditsRepo } from '../credits/credits.repo.js';
import { applyCreditChange } from '../credits/credits-writer.js';

/**
 * The credit rules of a turn that calls a model, the same for a chat turn and for a `/v1`
 * request through a personal key: the price reserved by one conditional update, with the
 * usage caps, before the model is called (a cap's refusal takes the charge back); the
 * charge kept once something was produced; given back exactly once when nothing was. Each
 * step is one transaction that changes the balance and writes its ledger row together.
 */

/** What the ledger rows of a turn name: the conversation, or the personal key. */
export type TurnSource =
  { chat: { conversationId: string; modelName: string } } | { api: { keyId: number; modelName: string } };

/** One turn's charge. */
export interface TurnCharge {
  userId: number;
  /** The user's group when the turn began; null for none. */
  groupId: number | null;
  model: string;
  /** Charged; 0 when credits are off or the model is free. */
  cost: number;
  /** The charge's ledger reference (the answer's id, the API turn's id); one refund per reference. */
  referenceId: string;
  source: TurnSource;
}

/** A charge being reserved. */
export interface TurnReservation extends TurnCharge {
  /** Balance the user must hold (≥ cost). */
  required: number;
  now: string;
  /** The statistics time zone, which the usage caps' windows follow. */
  timeZone: string;
}

/** The caller's refusal: credits expired, or too few (`balance`) for what is required. */
export type Refusal = (balance: number, expired: boolean) => Error;

/** Thrown inside a settling transaction to roll it back: another instance settled the turn first. */
export class AlreadySettled extends Error {}

const LEDGER = {
  chat: { consume: 'server.ledger.chatConsume', refund: 'server.ledger.chatRefund' },
  api: { consume: 'server.ledger.apiConsume', refund: 'server.ledger.apiRefund' },
};
const ledgerOf = (source: TurnSource) => ('api' in source ? LEDGER.api : LEDGER.chat);

/** Runs a turn's opening transaction; a usage cap's refusal rolled it all back, and its alerts fire after. */
export async function openTurn<T>(
  db: Kysely<Database>,
  now: string,
  run: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  try {
    return await db.transaction().execute(run);
  } catch (err) {
    if (err instanceof CapReached) await recordCapReached(db, err, now);
    throw err;
  }
}

/**
 * Takes the cost (or, for a free turn, only checks the required balance) under one
 * conditional update, then counts it in the usage caps in the same transaction. Returns
 * the balance after; throws `refuse`'s error or CAP_REACHED.
 */
export async function reserveCredits(
  trx: Transaction<Database>,
  credits: CreditsRepo,
  r: TurnReservation,
  refuse: Refusal,
): Promise<number> {
  const remaining = await charge(trx, credits, r, refuse);
  await reserveWithinCaps(trx, {
    userId: r.userId,
    groupId: r.groupId,
    modelName: r.model,
    cost: r.cost,
    now: r.now,
    timeZone: r.timeZone,
  });
  return remaining;
}

async function charge(
  trx: Transaction<Database>,
  credits: CreditsRepo,
  r: TurnReservation,
  refuse: Refusal,
): Promise<number> {
  const refused = (balance: number, expireAt: string | null): never => {
    throw refuse(balance, expireAt !== null && expireAt <= r.now);
  };
  if (r.cost > 0) {
    const done = await applyCreditChange(trx, {
      userId: r.userId,
      type: 'chat_consume',
      amount: -r.cost,
      description: ledgerOf(r.source).consume,
      referenceId: r.referenceId,
      ...r.source,
      requireBalance: r.required,
      requireUnexpired: true,
      now: r.now,
    });
    return done.ok ? done.row.balance_after : refused(done.balance, done.expireAt);
  }
  if (r.required > 0 && !(await credits.holdsAtLeast(trx, r.userId, r.required, r.now))) {
    const b = await credits.balance(trx, r.userId);
    return refused(b.remaining, b.expireAt);
  }
  return (await credits.balance(trx, r.userId)).remaining;
}

/**
 * The turn's charge given back as one `system_refund` ledger row (same reference as the
 * charge: the unique index refuses a second), and to the usage caps' counters in the
 * windows of `day`, the day it was counted in. Nothing for a free turn.
 */
export async function returnCharge(
  trx: Transaction<Database>,
  c: TurnCharge & { day: string },
  now: string,
): Promise<void> {
  if (c.cost <= 0) return;
  await applyCreditChange(trx, {
    userId: c.userId,
    type: 'system_refund',
    amount: c.cost,
    description: ledgerOf(c.source).refund,
    referenceId: c.referenceId,
    ...c.source,
    now,
  });
  await releaseCaps(trx, { userId: c.userId, groupId: c.groupId, modelName: c.model, cost: c.cost, day: c.day });
}

/**
 * Runs one settling transaction; false when it rolled back because the turn was settled
 * already (`AlreadySettled`, or a second refund row refused by the unique index).
 */
export async function settleOnce(
  db: Kysely<Database>,
  run: (trx: Transaction<Database>) => Promise<void>,
): Promise<boolean> {
  try {
    await db.transaction().execute(run);
    return true;
  } catch (err) {
    if (err instanceof AlreadySettled || isUniqueViolation(err)) return false;
    throw err;
  }
}
