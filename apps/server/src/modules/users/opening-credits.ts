import type { GroupRow, Db } from '../../db/types.js';
import { AppError } from '../../lib/http/errors.js';
import type { Actor } from '../../policies/actor.js';
import { can } from '../../policies/policy.js';
import { applyCreditChange } from '../credits/credits-writer.js';
import { applyPoolChange } from '../groups/pool-writer.js';

/*
 * Where a new account's opening credits come from — the one rule for every way an
 * account is made (registration, the add-user form, CSV import, start-up):
 *  - its group has a credit pool: they are drawn from that pool; when the pool cannot
 *    cover them the account is refused, except a self-registration, which opens with none
 *    (the visitor cannot act on a pool, and a refusal would show them its state);
 *  - otherwise the site grants them, but only when whoever makes the account could grant
 *    credits anyway (registration, start-up, an administrator who may adjust balances).
 *    Anyone else (a group administrator) would mint credits by making accounts whose
 *    password they know, so their accounts open with none.
 */

/** A group "has a pool" once its pool total is above zero; a group is created with none. */
export const hasPool = (group: Pick<GroupRow, 'credits_pool'>): boolean => group.credits_pool > 0;

/** Whether an administrator's new accounts may receive opening credits from the site. */
export const mayGrantOpeningCredits = (actor: Actor): boolean => can(actor, 'credits.adjust');

export type OpeningCredits = { amount: number; fromPool: boolean };

/** What a new account in `group` receives, and from where, for the credits asked for. */
export function openingCreditsOf(
  group: Pick<GroupRow, 'credits_pool'> | undefined,
  requested: number,
  siteMayGrant: boolean,
): OpeningCredits {
  if (group && hasPool(group)) return { amount: requested, fromPool: true };
  return { amount: siteMayGrant ? requested : 0, fromPool: false };
}

/**
 * Writes a new account's opening credits inside its creating transaction. `group` is the
 * group row as locked by that transaction. Drawn from a pool they are a `system_reward`
 * row for the member and a `group_distribute` row in the pool's ledger (so a reclaim may
 * take them back to the pool), written by the pool's one writer, whose conditional update
 * cannot overdraw it however many accounts are made at once.
 */
export async function grantOpeningCredits(
  trx: Db,
  o: {
    userId: number;
    group: GroupRow | undefined;
    requested: number;
    siteMayGrant: boolean;
    whenPoolShort: 'refuse' | 'open-empty';
    operatorId: number | null;
    /** The ledger text (an i18n key) when the site grants them. */
    siteDescription: string;
    now: string;
  },
): Promise<OpeningCredits> {
  const opening = openingCreditsOf(o.group, o.requested, o.siteMayGrant);
  if (opening.amount <= 0) return opening;
  const pool = opening.fromPool ? o.group : undefined;
  if (pool) {
    const drawn = await applyPoolChange(trx, {
      groupId: pool.id,
      type: 'group_distribute',
      amount: -opening.amount,
      userId: o.userId,
      operatorId: o.operatorId,
      now: o.now,
    });
    if (!drawn.ok) {
      if (o.whenPoolShort === 'open-empty') return { amount: 0, fromPool: true };
      const remaining = drawn.state?.remaining ?? pool.credits_pool - pool.credits_pool_used;
      const data = { required: opening.amount, remaining };
      throw new AppError('POOL_SHORT_FOR_OPENING_CREDITS', data, data);
    }
  }
  await applyCreditChange(trx, {
    userId: o.userId,
    type: 'system_reward',
    amount: opening.amount,
    description: pool ? 'server.ledger.openingFromPool' : o.siteDescription,
    operatorId: o.operatorId,
    now: o.now,
  });
  return opening;
}
