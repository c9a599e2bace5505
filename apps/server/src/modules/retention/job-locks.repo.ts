import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';

/**
 * Cluster-wide locks as lease rows: whoever holds `name` until `locked_until` runs the job;
 * a holder that dies simply lets its lease run out. Works the same on SQLite and PostgreSQL
 * (an advisory lock would be PostgreSQL's alone, and tied to one pooled connection).
 */
export class JobLocksRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Takes the lock when free, expired or already ours; true when `owner` now holds it until `until`. */
  async acquire(name: string, owner: string, now: string, until: string): Promise<boolean> {
    await this.db
      .insertInto('job_locks')
      .values({ name, owner: '', locked_until: now })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    // One conditional update: of two instances racing, only one changes the row.
    const r = await this.db
      .updateTable('job_locks')
      .set({ owner, locked_until: until })
      .where('name', '=', name)
      .where((eb) => eb.or([eb('locked_until', '<=', now), eb('owner', '=', owner)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Extends a lock still ours; false when it was lost (expired and taken by another). */
  async renew(name: string, owner: string, until: string): Promise<boolean> {
    const r = await this.db
      .updateTable('job_locks')
      .set({ locked_until: until })
      .where('name', '=', name)
      .where('owner', '=', owner)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async release(name: string, owner: string, now: string): Promise<void> {
    await this.db
      .updateTable('job_locks')
      .set({ owner: '', locked_until: now })
      .where('name', '=', name)
      .where('owner', '=', owner)
      .execute();
  }
}
