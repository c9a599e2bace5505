import type { Insertable, Kysely } from 'kysely';
import type { Database, Db, FileRow, FilesTable } from '../../db/types.js';
import { lockOwner } from '../users/owner-lock.repo.js';

/** Uploaded files (documents and images) as the files calls see them; the bytes live under DATA_DIR/uploads. */
export class DocumentFilesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Bytes of everything the user has stored (images and documents share one quota). */
  async bytesOf(userId: number, db: Db = this.db): Promise<number> {
    const r = await db
      .selectFrom('files')
      .select((eb) => eb.fn.sum<number | string | null>('size').as('bytes'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(r.bytes ?? 0);
  }

  /**
   * Inserts the file unless its owner's stored files would then pass `maxBytes`; false when
   * refused. Counted under the owner's row lock so simultaneous uploads cannot pass the
   * quota together; `admit` runs the site-wide checks in the same transaction (it throws to refuse).
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

  /**
   * Deletes the file's row unless a message lists it (checked in the same statement, so a
   * send attaching it meanwhile wins); its pages, passages, index entries and knowledge-base
   * places go with it by cascade. True when deleted.
   */
  async deleteUnlisted(id: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('files')
      .where('id', '=', id)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb.selectFrom('message_files').select('message_id').whereRef('message_files.file_id', '=', 'files.id'),
          ),
        ),
      )
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}
