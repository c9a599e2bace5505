import { type Kysely, sql } from 'kysely';
import type { Database, Db, UserRow } from '../../db/types.js';
import { isRowId } from '../users/users.repo.js';
import type { EqualityFilter } from './scim-query.js';

export type ScimUserRow = UserRow & { group_name: string | null };
export interface ScimGroupRow {
  id: number;
  name: string;
  created_at: string;
  updated_at: string;
}
export interface ScimMember {
  id: number;
  username: string;
  group_id: number | null;
}

/** A number the filter or the path gave as an id, or undefined when it names no row. */
const rowIdOf = (v: string): number | undefined => (/^\d+$/.test(v) && isRowId(Number(v)) ? Number(v) : undefined);

/** The queries SCIM asks of accounts and groups; writes go through the users and groups services. */
export class ScimRepo {
  constructor(private readonly db: Kysely<Database>) {}

  private users(db: Db) {
    return db
      .selectFrom('users')
      .leftJoin('user_groups', 'user_groups.id', 'users.group_id')
      .selectAll('users')
      .select('user_groups.name as group_name')
      .where('users.deleted_at', 'is', null);
  }

  async findUser(id: string, db: Db = this.db): Promise<ScimUserRow | undefined> {
    const rowId = rowIdOf(id);
    return rowId === undefined ? undefined : this.users(db).where('users.id', '=', rowId).executeTakeFirst();
  }

  /**
   * Live accounts matching every test. An account the directory has not named yet answers to
   * its username or email as `userName`, so an identity provider can take over accounts that
   * existed before provisioning began instead of failing on a duplicate.
   */
  async findUsers(f: EqualityFilter, offset: number, limit: number): Promise<{ rows: ScimUserRow[]; total: number }> {
    let q = this.users(this.db);
    const userName = f.get('username');
    if (userName !== undefined) {
      const v = userName.toLowerCase();
      q = q.where((eb) =>
        eb.or([
          eb(sql`lower(users.scim_user_name)`, '=', v),
          eb.and([
            eb('users.scim_user_name', 'is', null),
            eb.or([eb(sql`lower(users.username)`, '=', v), eb('users.email', '=', v)]),
          ]),
        ]),
      );
    }
    const externalId = f.get('externalid');
    if (externalId !== undefined) q = q.where('users.external_id', '=', externalId);
    const email = f.get('emails.value') ?? f.get('emails');
    if (email !== undefined) q = q.where('users.email', '=', email.toLowerCase());
    const id = f.get('id');
    if (id !== undefined) q = q.where('users.id', '=', rowIdOf(id) ?? 0);
    const [rows, count] = await Promise.all([
      limit === 0 ? [] : q.orderBy('users.id').limit(limit).offset(offset).execute(),
      q
        .clearSelect()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  /** The live account that already carries this userName or externalId, other than `exceptId`. */
  async holderOf(
    field: 'scim_user_name' | 'external_id',
    value: string,
    exceptId: number,
    db: Db,
  ): Promise<number | undefined> {
    const column = field === 'scim_user_name' ? sql`lower(scim_user_name)` : sql.ref('external_id');
    const row = await db
      .selectFrom('users')
      .select('id')
      .where(column, '=', field === 'scim_user_name' ? value.toLowerCase() : value)
      .where('id', '!=', exceptId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row?.id;
  }

  async setDirectoryFields(
    id: number,
    f: { scim_user_name: string; external_id: string | null; scim_profile: string | null; email: string },
    now: string,
    db: Db,
  ): Promise<void> {
    await db
      .updateTable('users')
      .set({ ...f, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  async findGroup(id: string, db: Db = this.db): Promise<ScimGroupRow | undefined> {
    const rowId = rowIdOf(id);
    if (rowId === undefined) return undefined;
    return db
      .selectFrom('user_groups')
      .select(['id', 'name', 'created_at', 'updated_at'])
      .where('id', '=', rowId)
      .executeTakeFirst();
  }

  async findGroups(f: EqualityFilter, offset: number, limit: number): Promise<{ rows: ScimGroupRow[]; total: number }> {
    let q = this.db.selectFrom('user_groups');
    const name = f.get('displayname');
    if (name !== undefined) q = q.where(sql`lower(name)`, '=', name.toLowerCase());
    const id = f.get('id');
    if (id !== undefined) q = q.where('id', '=', rowIdOf(id) ?? 0);
    const member = f.get('members.value') ?? f.get('members');
    if (member !== undefined) {
      q = q.where('id', 'in', (eb) =>
        eb
          .selectFrom('users')
          .select('group_id')
          .where('id', '=', rowIdOf(member) ?? 0)
          .where('deleted_at', 'is', null),
      );
    }
    const [rows, count] = await Promise.all([
      limit === 0
        ? []
        : q.select(['id', 'name', 'created_at', 'updated_at']).orderBy('id').limit(limit).offset(offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  /** The live members of these groups. */
  membersOf(groupIds: number[]): Promise<ScimMember[]> {
    if (groupIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('users')
      .select(['id', 'username', 'group_id'])
      .where('group_id', 'in', groupIds)
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .execute();
  }

  /** Which of these accounts an administrator pinned to their group. */
  async pinnedAmong(ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('users')
      .select('id')
      .where('id', 'in', ids)
      .where('group_pinned', '=', 1)
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  /** Which of these ids are live accounts. */
  async liveUserIds(ids: string[]): Promise<Map<string, number>> {
    const wanted = new Map<string, number>();
    for (const v of ids) {
      const id = rowIdOf(v);
      if (id !== undefined) wanted.set(v, id);
    }
    if (wanted.size === 0) return new Map();
    const rows = await this.db
      .selectFrom('users')
      .select('id')
      .where('id', 'in', [...wanted.values()])
      .where('deleted_at', 'is', null)
      .execute();
    const live = new Set(rows.map((r) => r.id));
    return new Map([...wanted].filter(([, id]) => live.has(id)));
  }
}
