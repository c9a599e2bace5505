import type { Insertable, Kysely } from 'kysely';
import type { AnnouncementRow, AnnouncementsTable, Database, Db } from '../../db/types.js';

/** One announcement per scope: the system one, or one per group. */
export type AnnouncementScope = { kind: 'system' } | { kind: 'group'; groupId: number };

export const scopeKey = (scope: AnnouncementScope) => (scope.kind === 'system' ? 'system' : `group:${scope.groupId}`);

export class AnnouncementsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  find(scope: AnnouncementScope, db: Db = this.db): Promise<AnnouncementRow | undefined> {
    return db.selectFrom('announcements').selectAll().where('scope_key', '=', scopeKey(scope)).executeTakeFirst();
  }

  /** Reads the row and, on PostgreSQL, locks it until the transaction ends (a no-op update). */
  lock(scope: AnnouncementScope, trx: Db): Promise<AnnouncementRow | undefined> {
    return trx
      .updateTable('announcements')
      .set((eb) => ({ updated_at: eb.ref('updated_at') }))
      .where('scope_key', '=', scopeKey(scope))
      .returningAll()
      .executeTakeFirst();
  }

  async save(row: Omit<Insertable<AnnouncementsTable>, 'id'>, trx: Db): Promise<AnnouncementRow> {
    const { scope_key: _key, group_id: _group, ...changes } = row;
    return trx
      .insertInto('announcements')
      .values(row)
      .onConflict((oc) => oc.column('scope_key').doUpdateSet(changes))
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async groupExists(id: number, db: Db = this.db): Promise<boolean> {
    return !!(await db.selectFrom('user_groups').select('id').where('id', '=', id).executeTakeFirst());
  }
}
