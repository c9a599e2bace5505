import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';

/** How many of a user's newest notifications the bell lists. */
export const NOTIFICATIONS_LISTED = 50;

/** The SQL of the bell: a user's notifications and their read marks. */
export class NotificationsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  newest(userId: number) {
    return this.db
      .selectFrom('notifications')
      .select(['id', 'kind', 'data', 'created_at', 'read_at'])
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(NOTIFICATIONS_LISTED)
      .execute();
  }

  async unread(userId: number): Promise<number> {
    const r = await this.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Marks one of the user's notifications read; false when it is not theirs (or does not exist). */
  async markRead(userId: number, id: number, now: string): Promise<boolean> {
    const mine = await this.db
      .selectFrom('notifications')
      .select('id')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!mine) return false;
    await this.db
      .updateTable('notifications')
      .set({ read_at: now })
      .where('id', '=', id)
      .where('read_at', 'is', null)
      .execute();
    return true;
  }
}
