import type { Insertable, Kysely } from 'kysely';
import type { Database, FileRow, FilesTable, Db } from '../../db/types.js';
import type { UserRow } from '../../db/types.js';
import { lockOwner } from '../users/owner-lock.repo.js';

/** Uploaded files, images and documents (metadata; the bytes live under DATA_DIR/uploads). */
export class FilesRepo {
  constructor(protected readonly db: Kysely<Database>) {}

  async insert(row: Insertable<FilesTable>): Promise<void> {
    await this.db.insertInto('files').values(row).execute();
  }

  /** Bytes of every image the user has stored. */
  async bytesOf(userId: number, db: Db = this.db): Promise<number> {
    const r = await db
      .selectFrom('files')
      .select((eb) => eb.fn.sum<number | string | null>('size').as('bytes'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(r.bytes ?? 0);
  }

  /**
   * Inserts the file unless its owner's stored images would then pass `maxBytes`; false
   * when refused. Summed under the owner's row lock, so simultaneous uploads cannot pass
   * the quota together; `admit` then runs the site-wide checks in the same transaction
   * (it throws to refuse).
   */
  async insertWithinQuota(
    row: Insertable<FilesTable>,
    maxBytes: number,
    admit: (trx: Db) => Promise<void>,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await lockOwner(trx, row.user_id);
      if ((await this.bytesOf(row.user_id, trx)) + row.size > maxBytes) return false;
      await admit(trx);
      await trx.insertInto('files').values(row).execute();
      return true;
    });
  }

  findById(id: string): Promise<FileRow | undefined> {
    return this.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Those of the files that belong to the user (any order; others' and unknown ids are simply absent). */
  findOwned(ids: readonly string[], userId: number): Promise<FileRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('files').selectAll().where('id', 'in', ids).where('user_id', '=', userId).execute();
  }

  /** The owner's group and role, for an administrator's access check. */
  async owner(userId: number): Promise<{ group_id: number | null; role: UserRow['role'] } | undefined> {
    return this.db.selectFrom('users').select(['group_id', 'role']).where('id', '=', userId).executeTakeFirst();
  }
}
