import type { AdminUser, CreditTransaction, DistributeCreditsBody, Group, Language } from '@aiplatform/contracts';
import { AppError, InputError } from '../../lib/http/errors.js';
import type { AdminContext } from '../../policies/actor.js';
import { authorize } from '../../policies/policy.js';
import type { AdminTransactions } from '../audit/admin-tx.js';
import { applyCreditChange } from '../credits/credits-writer.js';
import { toCreditTransaction } from '../credits/ledger.presenter.js';
import type { UserTargets } from '../../policies/user-targets.js';
import type { GroupsRepo } from './groups.repo.js';
import type { GroupsService } from './groups.service.js';
import { applyPoolChange } from './pool-writer.js';

export interface PoolTransferResult {
  group: Group;
  user: AdminUser;
  transaction: CreditTransaction;
}

/**
 * Moves credits between a group's pool and one of its members. The member's balance,
 * their ledger row, the pool and the pool's ledger row change in one transaction; the
 * pool never goes below zero, and a reclaim takes back at most what the member received
 * from the pool and still holds.
 */
export class GroupPoolService {
  constructor(
    private readonly d: {
      groups: GroupsRepo;
      groupsService: GroupsService;
      adminUsers: UserTargets;
      tx: AdminTransactions;
      onPoolChanged: (groupId: number) => void;
    },
  ) {}

  async transfer(
    ctx: AdminContext,
    groupId: number,
    body: DistributeCreditsBody,
    idempotencyKey: string | undefined,
    lang: Language,
  ): Promise<PoolTransferResult> {
    authorize(ctx.actor, 'group.pool.transfer', { kind: 'group', id: groupId });
    if (!(await this.d.groups.findById(groupId))) throw new AppError('NOT_FOUND');
    const distribute = body.operation === 'distribute';
    const done = await this.d.tx.run(
      ctx,
      async (trx, now) => {
        // Lock order everywhere: user row first, then group row.
        // A group administrator moves credits only to and from plain members, never to
        // themselves or another administrator: the pool is not theirs to take.
        const user = await this.d.adminUsers.lockTarget(ctx.actor, 'group.pool.transfer', body.user_id, trx, now);
        if (user.group_id !== groupId) throw new InputError(['validation.user.notInGroup']);
        const group = await this.d.groups.lock(groupId, trx, now);
        if (!group) throw new AppError('NOT_FOUND');
        const poolBefore = group.credits_pool - group.credits_pool_used;
        // Only credits that came from the pool go back to it: reclaiming a member's own
        // credits (opening credits, an administrator's grant) would mint pool money.
        if (!distribute) {
          const received = await this.d.groups.netReceivedFromPool(groupId, user.id, trx);
          if (body.amount > received) throw new AppError('RECLAIM_EXCEEDS_RECEIVED', { max: Math.max(0, received) });
        }

        // The pool's side first: its writer refuses a distribution it cannot cover and a
        // reclaim of more than it handed out, whatever else runs at the same time.
        const pool = await applyPoolChange(trx, {
          groupId,
          type: distribute ? 'group_distribute' : 'group_reclaim',
          amount: distribute ? -body.amount : body.amount,
          userId: user.id,
          operatorId: ctx.actor.id,
          reason: body.reason,
          now,
        });
        if (!pool.ok) {
          const remaining = pool.state?.remaining ?? poolBefore;
          throw new AppError('POOL_INSUFFICIENT', {}, { remaining, required: body.amount });
        }
        const r = await applyCreditChange(trx, {
          userId: user.id,
          type: distribute ? 'group_distribute' : 'group_reclaim',
          amount: distribute ? body.amount : -body.amount,
          description: distribute ? 'server.ledger.groupDistribute' : 'server.ledger.groupReclaim',
          operatorId: ctx.actor.id,
          reason: body.reason,
          referenceId: null,
          now,
        });
        if (!r.ok) {
          const data = { required: body.amount, balance: r.balance };
          throw new AppError('INSUFFICIENT_CREDITS', data, data);
        }
        const poolAfter = pool.state.remaining;
        const result = {
          group: await this.d.groupsService.present(ctx.actor, groupId, trx),
          user: await this.d.adminUsers.present(ctx.actor, user.id, trx),
          transaction: toCreditTransaction({ ...r.row, operator_username: ctx.actor.username }, lang),
        };
        return {
          result,
          audit: {
            action: `group.pool.${body.operation}`,
            targetType: 'group',
            targetId: groupId,
            before: {
              pool_remaining: poolBefore,
              user_id: user.id,
              user_balance: user.credits_quota - user.credits_used,
            },
            after: {
              pool_remaining: poolAfter,
              user_id: user.id,
              user_balance: r.row.balance_after,
              amount: body.amount,
              reason: body.reason,
            },
          },
        };
      },
      { key: idempotencyKey, request: { op: 'group.pool', groupId, body } },
    );
    this.d.onPoolChanged(groupId);
    return done;
  }
}
