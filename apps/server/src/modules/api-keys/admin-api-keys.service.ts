import type { AdminApiKey, AdminApiKeyListQuery, Pagination } from '@aiplatform/contracts';
import { paginate } from '../../lib/http/envelope.js';
import { AppError } from '../../lib/http/errors.js';
import type { Actor, AdminContext } from '../../policies/actor.js';
import { authorizeFound, listScope } from '../../policies/policy.js';
import { userTarget } from '../../policies/user-targets.js';
import type { AdminTransactions } from '../audit/admin-tx.js';
import type { ApiKeyAuth } from './api-key-auth.js';
import { keySnapshot, presentAdminApiKey } from './api-key.presenter.js';
import type { ApiKeySpendRepo } from './api-key-spend.repo.js';
import type { ApiKeysRepo } from './api-keys.repo.js';
import type { Clock } from '../../lib/runtime/clock.js';

/**
 * Every user's keys as administrators see them: a super administrator (or whoever manages
 * all users) every key, a group administrator their group's. A key outside that reach is
 * not found. Each revocation is audited and takes effect at once on every instance.
 */
export class AdminApiKeysService {
  constructor(
    private readonly d: {
      repo: ApiKeysRepo;
      spend: ApiKeySpendRepo;
      auth: ApiKeyAuth;
      tx: AdminTransactions;
      clock: Clock;
    },
  ) {}

  async list(actor: Actor, q: AdminApiKeyListQuery): Promise<{ items: AdminApiKey[]; pagination: Pagination }> {
    const { rows, total } = await this.d.repo.page(
      { userId: q.user_id, search: q.search },
      listScope(actor, 'api_key.admin'),
      q.page,
      q.limit,
    );
    const spent = await this.d.spend.spentInPeriod(rows, this.d.clock.now());
    return {
      items: rows.map((r) => presentAdminApiKey(r, spent.get(r.id) ?? 0)),
      pagination: paginate(q.page, q.limit, total),
    };
  }

  async revoke(ctx: AdminContext, id: number): Promise<{ id: number }> {
    const result = await this.d.tx.run(ctx, async (trx, now) => {
      const row = authorizeFound(ctx.actor, 'api_key.admin', await this.d.repo.findWithOwner(id, trx), (k) =>
        userTarget({ id: k.user_id, group_id: k.owner_group_id, role: k.owner_role }),
      );
      if (row.revoked_at !== null) throw new AppError('NOT_FOUND');
      await this.d.repo.revoke(id, now, trx);
      return {
        result: { id },
        audit: {
          action: 'api_key.revoke',
          targetType: 'api_key',
          targetId: id,
          before: keySnapshot(row),
          after: { revoked_at: now },
        },
      };
    });
    await this.d.auth.changed();
    return result;
  }
}
