import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { CreditsRepo } from '../credits/credits.repo.js';
import {
  AlreadySettled,
  type TurnCharge,
  openTurn,
  reserveCredits,
  returnCharge,
  settleOnce,
} from '../chat/turn-charge.js';
import { type UsageKey, addUsage } from '../stats/usage-rollup.repo.js';
import { lockOwner } from '../users/owner-lock.repo.js';
import type { UsersRepo } from '../users/users.repo.js';
import { type ApiTurnClaim, type ApiTurnEnd, type ApiTurnsRepo } from './api-turns.repo.js';
import { type ApiUsageKey, addApiUsage } from './api-usage-rollup.repo.js';
import { type KeyPeriod, periodStartDay } from './key-period.js';
import { insufficientQuota } from './v1-errors.js';

/** What a key's limit needs of its row. */
export interface KeyLimit {
  id: number;
  credit_limit: number | null;
  /** Null: the limit runs over the key's whole life. */
  period: KeyPeriod | null;
}

export interface OpenApiTurn {
  id: string;
  userId: number;
  groupId: number | null;
  key: KeyLimit;
  model: string;
  kind: 'chat' | 'embedding';
  /** Charged now; 0 when credits are off or the model is free. */
  cost: number;
  /** Balance the user must hold (≥ cost). */
  required: number;
  /** The statistics day the turn begins on (the site's zone). */
  day: string;
  /** The statistics time zone, which the usage caps' windows follow. */
  timeZone: string;
  now: string;
  owner: string;
  leaseUntil: string;
}

/** A reserved API turn, as its settling steps need it. */
export interface ApiTurnRef {
  id: string;
  userId: number;
  groupId: number | null;
  apiKeyId: number;
  model: string;
  day: string;
  cost: number;
}

/** The settled outcome of a turn that produced output. */
export type KeptEnd = Omit<ApiTurnEnd, 'status'> & { status: 'complete' | 'stopped' | 'error' };

/**
 * The money side of one `/v1` request, by the chat's rules: the model's price reserved by
 * one conditional update before the upstream is called, kept once the model produced
 * anything, refunded exactly once when it produced nothing. Each step is one transaction
 * writing the balance, the ledger row (source `api`, the key's id), the `api_turns` row and
 * the statistics together. Locks are taken in the chat's order: the user row first.
 */
export class ApiAccounting {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly credits: CreditsRepo,
    private readonly users: UsersRepo,
    private readonly turns: ApiTurnsRepo,
  ) {}

  /**
   * Reserves the turn: the owner's row lock, then the key's credit limit for its period
   * (its spend counted under that lock, so concurrent requests of a key cannot pass it
   * together), the charge, the turn's row and its statistics. Returns the
   * balance after. Throws an `insufficient_quota` refusal; nothing is written then.
   */
  async open(t: OpenApiTurn): Promise<number> {
    const ref = refOf(t);
    return openTurn(this.db, t.now, async (trx) => {
      await lockOwner(trx, t.userId);
      if (t.key.credit_limit !== null) {
        const spent = await this.turns.spentSince(trx, t.key.id, periodStartDay(t.key.period ?? 'total', t.day));
        if (spent + t.cost > t.key.credit_limit) {
          throw insufficientQuota('server.v1.keyLimit', {
            limit: t.key.credit_limit,
            spent,
            period: t.key.period ?? 'total',
          });
        }
      }
      // The chat's usage caps count API credits too, in the same transaction: a refusal takes the charge back.
      const remaining = await reserveCredits(
        trx,
        this.credits,
        { ...chargeOf(ref), required: t.required, now: t.now, timeZone: t.timeZone },
        (balance, expired) =>
          expired
            ? insufficientQuota('server.v1.creditsExpired')
            : insufficientQuota('server.v1.insufficientCredits', { required: t.required, balance }),
      );
      await this.turns.insert(trx, {
        id: t.id,
        user_id: t.userId,
        api_key_id: t.key.id,
        group_id: t.groupId,
        model_name: t.model,
        kind: t.kind,
        day: t.day,
        cost: t.cost,
        status: 'streaming',
        owner: t.owner,
        lease_until: t.leaseUntil,
        created_at: t.now,
      });
      // A request and its answer count as two messages, as a chat turn does.
      await addUsage(trx, usageKey(ref), { messages: 2, credits: t.cost });
      await addApiUsage(trx, apiUsageKey(ref), { requests: 1, credits: t.cost });
      return remaining;
    });
  }

  /** Keeps the charge and stores the end; false when the turn was settled elsewhere already. */
  async settle(ref: ApiTurnRef, end: KeptEnd, claim: ApiTurnClaim): Promise<boolean> {
    return settleOnce(this.db, async (trx) => {
      await this.users.addTokensUsed(ref.userId, end.tokens, trx);
      if (!(await this.turns.finish(trx, ref.id, end, claim))) throw new AlreadySettled();
      await addUsage(trx, usageKey(ref), { tokens: end.tokens });
      await addApiUsage(trx, apiUsageKey(ref), { tokens: end.tokens });
    });
  }

  /**
   * Nothing was produced: the cost goes back as one `system_refund` row (same reference as
   * the charge; the unique index refuses a second) and the statistics are undone.
   * False when the turn was settled already.
   */
  async refund(ref: ApiTurnRef, now: string, claim: ApiTurnClaim): Promise<boolean> {
    return settleOnce(this.db, async (trx) => {
      // A free turn has no ledger row to write: the owner's lock alone keeps the chat's order.
      if (ref.cost > 0) await returnCharge(trx, chargeOf(ref), now);
      else await lockOwner(trx, ref.userId);
      const end = { status: 'refunded' as const, promptTokens: 0, completionTokens: 0, tokens: 0, now };
      if (!(await this.turns.finish(trx, ref.id, end, claim))) throw new AlreadySettled();
      await addUsage(trx, usageKey(ref), { messages: -2, credits: -ref.cost });
      await addApiUsage(trx, apiUsageKey(ref), { requests: -1, credits: -ref.cost });
    });
  }

  /**
   * Settles turns whose instance is gone (lease run out): one that had produced output is
   * kept as broken off (`error`, charged, no tokens known), one that had not is refunded.
   * Each step is conditional on the lease still being expired, so it happens once.
   */
  async settleAbandoned(now: string, limit: number): Promise<{ charged: number; refunded: number }> {
    const settled = { charged: 0, refunded: 0 };
    const claim = { leaseExpiredAt: now };
    for (const row of await this.turns.findAbandoned(now, limit)) {
      const ref: ApiTurnRef = {
        id: row.id,
        userId: row.user_id,
        groupId: row.group_id,
        apiKeyId: row.api_key_id,
        model: row.model_name,
        day: row.day,
        cost: row.cost,
      };
      if (row.produced) {
        const end = { status: 'error' as const, promptTokens: 0, completionTokens: 0, tokens: 0, now };
        if (await this.settle(ref, end, claim)) settled.charged += 1;
      } else if (await this.refund(ref, now, claim)) settled.refunded += 1;
    }
    return settled;
  }
}

const refOf = (t: OpenApiTurn): ApiTurnRef => ({
  id: t.id,
  userId: t.userId,
  groupId: t.groupId,
  apiKeyId: t.key.id,
  model: t.model,
  day: t.day,
  cost: t.cost,
});

/** The turn's charge as the shared credit rules take it. */
const chargeOf = (r: ApiTurnRef): TurnCharge & { day: string } => ({
  userId: r.userId,
  groupId: r.groupId,
  model: r.model,
  cost: r.cost,
  referenceId: r.id,
  source: { api: { keyId: r.apiKeyId, modelName: r.model } },
  day: r.day,
});

const usageKey = (r: ApiTurnRef): UsageKey => ({ day: r.day, userId: r.userId, groupId: r.groupId, model: r.model });
const apiUsageKey = (r: ApiTurnRef): ApiUsageKey => ({ ...usageKey(r), apiKeyId: r.apiKeyId });
