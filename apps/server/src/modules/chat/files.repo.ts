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
