import { type Insertable, type Kysely, sql } from 'kysely';
import type { Database, Db, ShareLinkRow, ShareLinksTable } from '../../db/types.js';
import { lockOwner } from '../users/owner-lock.repo.js';

/** A link as the list shows it: everything but its snapshot and token hash. */
export type ListedShareLink = Omit<ShareLinkRow, 'snapshot' | 'token_hash'>;

/** The only SQL on share links. */
export class ShareLinksRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Inserts the link unless its owner already has `max` links not revoked; the new id, or
   * null when refused. Counted under the owner's row lock, so simultaneous shares cannot
   * pass the limit together.
   */
  async insertWithinLimit(trx: Db, row: Insertable<ShareLinksTable>, max: number): Promise<number | null> {
    await lockOwner(trx, row.user_id);
    const r = await trx
      .selectFrom('share_links')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', row.user_id)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (Number(r.n) >= max) return null;
    const inserted = await trx.insertInto('share_links').values(row).returning('id').executeTakeFirstOrThrow();
    return Number(inserted.id);
  }

  /** The owner's links, newest first. */
  listOf(userId: number): Promise<ListedShareLink[]> {
    return this.db
      .selectFrom('share_links')
      .select([
        'id',
        'user_id',
        'conversation_id',
        'title',
        'model_name',
        'is_public',
        'expires_at',
        'revoked_at',
        'visits',
        'created_at',
      ])
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  findOwned(db: Db, id: number, userId: number): Promise<ListedShareLink | undefined> {
    return db
      .selectFrom('share_links')
      .select([
        'id',
        'user_id',
        'conversation_id',
        'title',
        'model_name',
        'is_public',
        'expires_at',
        'revoked_at',
        'visits',
        'created_at',
      ])
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /** Revokes a live link and drops its snapshot (nothing reads it again); false if it already was. */
  async revoke(db: Db, id: number, userId: number, now: string): Promise<boolean> {
    const r = await db
      .updateTable('share_links')
      .set({ revoked_at: now, snapshot: '' })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /**
   * The live link with this token hash, whose owner's account is active: not revoked and
   * not expired at `now`.
   */
  findReadable(tokenHash: string, now: string): Promise<ShareLinkRow | undefined> {
    return this.db
      .selectFrom('share_links as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .selectAll('s')
      .where('s.token_hash', '=', tokenHash)
      .where('s.revoked_at', 'is', null)
      .where((eb) => eb.or([eb('s.expires_at', 'is', null), eb('s.expires_at', '>', now)]))
      .where('u.status', '=', 'active')
      .where('u.deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** Counts one view of a link. */
  async countVisit(id: number): Promise<void> {
    await this.db
      .updateTable('share_links')
      .set({ visits: sql`visits + 1` })
      .where('id', '=', id)
      .execute();
  }
}
