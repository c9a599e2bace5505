import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';

/** The pool as the low-pool alert reads it. */
export interface PoolAlertState {
  name: string;
  credits_pool: number;
  credits_pool_used: number;
  pool_alert_sent_at: string | null;
}

/** The SQL of the low-pool alert: the group's pool, its "warned" mark, whom to tell. */
export class PoolAlertsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  find(groupId: number): Promise<PoolAlertState | undefined> {
    return this.db
      .selectFrom('user_groups')
      .select(['name', 'credits_pool', 'credits_pool_used', 'pool_alert_sent_at'])
      .where('id', '=', groupId)
      .executeTakeFirst();
  }

  /** Takes the mark if nobody holds it: true for exactly one caller per fall of the pool. */
  async claim(groupId: number, now: string): Promise<boolean> {
    const claimed = await this.db
      .updateTable('user_groups')
      .set({ pool_alert_sent_at: now })
      .where('id', '=', groupId)
      .where('pool_alert_sent_at', 'is', null)
      .executeTakeFirst();
    return Number(claimed.numUpdatedRows) === 1;
  }

  /** Clears the mark, so that the next fall below the share warns again. */
  async rearm(groupId: number): Promise<void> {
    await this.db.updateTable('user_groups').set({ pool_alert_sent_at: null }).where('id', '=', groupId).execute();
  }

  /** The addresses of the group's active administrators. */
  async adminEmails(groupId: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('users')
      .select(['email'])
      .where('group_id', '=', groupId)
      .where('role', '=', 'admin')
      .where('status', '=', 'active')
      .where('deleted_at', 'is', null)
      .execute();
    return rows.map((r) => r.email);
  }
}
