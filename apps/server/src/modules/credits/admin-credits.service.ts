import type {
  CreditOperation,
  CreditOperationBody,
  CreditOperationResult,
  Language,
  TransactionType,
} from '@aiplatform/contracts';
import type { UserRow } from '../../db/types.js';
import type { Clock } from '../../lib/runtime/clock.js';
import { paginate } from '../../lib/http/envelope.js';
import { AppError } from '../../lib/http/errors.js';
import type { Actor, AdminContext } from '../../policies/actor.js';
import { authorizeFound } from '../../policies/policy.js';
import type { AdminTransactions } from '../audit/admin-tx.js';
import type { UserTargets } from '../../policies/user-targets.js';
import { userTarget } from '../../policies/user-targets.js';
import type { AdminLedgerRepo } from './admin-ledger.repo.js';
import { applyCreditChange } from './credits-writer.js';
import { toCreditTransaction } from './ledger.presenter.js';

const DAY_MS = 86_400_000;

const TYPE_OF: Record<CreditOperation, { type: TransactionType; description: string }> = {
  add: { type: 'admin_add', description: 'server.ledger.adminAdd' },
  deduct: { type: 'admin_deduct', description: 'server.ledger.adminDeduct' },
  set: { type: 'admin_set', description: 'server.ledger.adminSet' },
};

/** New expiry after extending by `days`: from the current expiry, or from now when none or past. */
export function extendedExpiry(current: string | null, days: number, now: Date): string {
  const base = current && new Date(current).getTime() > now.getTime() ? new Date(current).getTime() : now.getTime();
  return new Date(base + days * DAY_MS).toISOString();
}

/** An administrator's add / deduct / set on a balance, and the ledger they read. */
export class AdminCreditsService {
  constructor(
    private readonly d: {
      users: { findWithGroupById(id: number): Promise<UserRow | undefined> };
      adminUsers: UserTargets;
      ledger: AdminLedgerRepo;
      tx: AdminTransactions;
      clock: Clock;
    },
  ) {}

  async adjust(
    ctx: AdminContext,
    userId: number,
    body: CreditOperationBody,
    idempotencyKey: string | undefined,
    lang: Language,
  ): Promise<CreditOperationResult> {
    return this.d.tx.run(
      ctx,
      async (trx, now) => {
        const user = await this.d.adminUsers.lockTarget(ctx.actor, 'credits.adjust', userId, trx, now);
        const balance = user.credits_quota - user.credits_used;
        const amount =
          body.operation === 'add' ? body.amount : body.operation === 'deduct' ? -body.amount : body.amount - balance;
        const { type, description } = TYPE_OF[body.operation];
        const r = await applyCreditChange(trx, {
          userId,
          type,
          amount,
          description,
          operatorId: ctx.actor.id,
          reason: body.reason,
          now,
        });
        if (!r.ok) {
          const data = { required: body.amount, balance: r.balance };
          throw new AppError('INSUFFICIENT_CREDITS', data, data);
        }
        const expireAt = body.extend_days
          ? extendedExpiry(user.credits_expire_at, body.extend_days, new Date(now))
          : user.credits_expire_at;
        if (expireAt !== user.credits_expire_at && expireAt !== null)
          await this.d.ledger.setExpiry(userId, expireAt, trx);
        const result = {
          user: await this.d.adminUsers.present(ctx.actor, userId, trx),
          transaction: toCreditTransaction({ ...r.row, operator_username: ctx.actor.username }, lang),
        };
        return {
          result,
          audit: {
            action: `user.credits.${body.operation}`,
            targetType: 'user',
            targetId: userId,
            before: { balance, credits_expire_at: user.credits_expire_at },
            after: { balance: r.row.balance_after, credits_expire_at: expireAt, amount, reason: body.reason },
          },
        };
      },
      { key: idempotencyKey, request: { op: 'user.credits', userId, body } },
    );
  }

  async history(
    actor: Actor,
    userId: number,
    q: { page: number; limit: number; type?: TransactionType | undefined },
    lang: Language,
  ) {
    authorizeFound(actor, 'credits.read', await this.d.users.findWithGroupById(userId), userTarget);
    const { rows, total } = await this.d.ledger.page(userId, q.type, q.page, q.limit);
    return { items: rows.map((r) => toCreditTransaction(r, lang)), pagination: paginate(q.page, q.limit, total) };
  }
}
