import { notFound } from '../../lib/http/errors.js';
import type { AdminContext } from '../../policies/actor.js';
import { authorize, requireScope } from '../../policies/policy.js';
import { userTarget } from '../../policies/user-targets.js';
import type { AdminTransactions } from '../audit/admin-tx.js';
import type { DataExportRepo } from './data-export.repo.js';

/**
 * A super administrator's copy of one person's data: allowed only with a reason, and the
 * audit log records who took it, of whom and why before any of it is sent.
 */
export class AdminDataExports {
  constructor(
    private readonly repo: DataExportRepo,
    private readonly tx: AdminTransactions,
  ) {}

  async record(ctx: AdminContext, userId: number, reason: string): Promise<void> {
    requireScope(ctx.actor, 'user.data_export');
    const user = await this.repo.profile(userId);
    if (!user) throw notFound();
    authorize(ctx.actor, 'user.data_export', userTarget(user));
    await this.tx.run(ctx, async () => ({
      result: null,
      audit: { action: 'user.data_export', targetType: 'user', targetId: userId, before: null, after: { reason } },
    }));
  }
}
