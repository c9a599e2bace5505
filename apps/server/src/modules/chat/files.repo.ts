import type { Insertable, Kysely } from 'kysely';
import type { Database, FileRow, FilesTable } from '../../db/types.js';

/** Uploaded chat images (metadata; the bytes live under DATA_DIR/uploads). */
export class FilesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: Insertable<FilesTable>): Promise<void> {
    await this.db.insertInto('files').values(row).execute();
  }

  findById(id: string): Promise<FileRow | undefined> {
    return this.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findOwned(id: string, userId: number): Promise<FileRow | undefined> {
    return this.db
      .selectFrom('files')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /** The owner's group, for the group administrator's access check. */
  async ownerGroup(userId: number): Promise<number | null> {
    const r = await this.db.selectFrom('users').select('group_id').where('id', '=', userId).executeTakeFirst();
    return r?.group_id ?? null;
  }
}
