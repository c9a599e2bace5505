import type { Insertable, Kysely } from 'kysely';
import type { Database, FileRow, FilesTable } from '../../db/types.js';
import type { UserRow } from '../../db/types.js';

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

  /** The owner's group and role, for an administrator's access check. */
  async owner(userId: number): Promise<{ group_id: number | null; role: UserRow['role'] } | undefined> {
    return this.db.selectFrom('users').select(['group_id', 'role']).where('id', '=', userId).executeTakeFirst();
  }
}
