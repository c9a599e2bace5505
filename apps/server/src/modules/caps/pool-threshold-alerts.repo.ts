import type { Kysely } from 'kysely';
import type { Database, Db } from '../../db/types.js';

/** A group's pool as its threshold alerts read it, with the thresholds its administrators set. */
export interface PoolThresholdState {
  name: string;
  credits_pool: number;
  credits_pool_used: number;
  /** JSON of the group's alert thresholds (the same as its caps'), or null when none are stored. */
  alerts: string | null;
  webhook_url: string | null;
}

/** The SQL of the pool's threshold alerts: the pool, and the marks that make each fire once per fall. */
export class PoolThresholdAlertsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  inTransaction<T>(run: (trx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(run);
  }

  find(db: Db, groupId: number): Promise<PoolThresholdState | undefined> {
    return db
      .selectFrom('user_groups as g')
      .leftJoin('usage_cap_subjects as s', (j) =>
        j.onRef('s.subject_id', '=', 'g.id').on('s.subject_type', '=', 'group'),
      )
      .select(['g.name', 'g.credits_pool', 'g.credits_pool_used', 's.alerts', 's.webhook_url'])
      .where('g.id', '=', groupId)
      .executeTakeFirst();
  }

  /** Marks a threshold as fired: true for exactly one caller per fall, however many race. */
  async claim(db: Db, groupId: number, percent: number, now: string): Promise<boolean> {
    const r = await db
      .insertInto('pool_alert_marks')
      .values({ group_id: groupId, percent, created_at: now })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /** Clears the marks of the thresholds the pool is back under (and of thresholds since removed). */
  async rearm(db: Db, groupId: number, stillReached: readonly number[]): Promise<void> {
    let q = db.deleteFrom('pool_alert_marks').where('group_id', '=', groupId);
    if (stillReached.length > 0) q = q.where('percent', 'not in', stillReached);
    await q.execute();
  }
}
