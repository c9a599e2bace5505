import type { Kysely } from 'kysely';
import type { Database, Db } from '../../db/types.js';
import { lockOwner } from '../users/owner-lock.repo.js';

/** Where uploaded avatars are served; any other address holds no bytes of ours. */
export const AVATAR_URL_PREFIX = '/api/avatars/';

/** The avatar an account shows and the bytes it takes in our store (0 for an address elsewhere). */
export interface StoredAvatar {
  url: string | null;
  bytes: number;
}

export class AvatarRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async current(userId: number, db: Db = this.db): Promise<StoredAvatar> {
    const row = await db
      .selectFrom('users')
      .select(['avatar_url', 'avatar_bytes'])
      .where('id', '=', userId)
      .executeTakeFirst();
    const url = row?.avatar_url ?? null;
    return { url, bytes: url?.startsWith(AVATAR_URL_PREFIX) ? Number(row?.avatar_bytes ?? 0) : 0 };
  }

  /**
   * Makes `url` (`bytes` long) the user's avatar in one transaction: under the user's row
   * lock it reads the avatar replaced, lets `admit` check the site's storage against the
   * net growth (it throws to refuse), and writes. Answers the avatar replaced.
   */
  async replace(
    userId: number,
    avatar: { url: string; bytes: number },
    now: string,
    admit: (trx: Db, growth: number) => Promise<void>,
  ): Promise<StoredAvatar> {
    return this.db.transaction().execute(async (trx) => {
      await lockOwner(trx, userId);
      const previous = await this.current(userId, trx);
      await admit(trx, avatar.bytes - previous.bytes);
      await trx
        .updateTable('users')
        .set({ avatar_url: avatar.url, avatar_bytes: avatar.bytes, updated_at: now })
        .where('id', '=', userId)
        .execute();
      return previous;
    });
  }
}
