import type { UserFilter, UserSortField } from '@aiplatform/contracts';
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Database, UserRow, Db } from '../../db/types.js';
import type { ListScope } from '../../policies/policy.js';
import { type UserWithGroup, isRowId } from './users.repo.js';

type UsersQuery = SelectQueryBuilder<Database, 'users', object>;

const SORT_COLUMNS: Record<UserSortField, ReturnType<typeof sql<unknown>>> = {
  id: sql`users.id`,
  username: sql`lower(users.username)`,
  created_at: sql`users.created_at`,
  last_login_at: sql`coalesce(users.last_login_at, '')`,
  credits_remaining: sql`users.credits_quota - users.credits_used`,
  token_used: sql`users.token_used`,
};

/** `!` escapes LIKE wildcards the same way on SQLite and PostgreSQL. */
const likeContains = (text: string) => `%${text.toLowerCase().replace(/[!%_]/g, '!$&')}%`;

/** The admin side's SQL on users: filtered, scoped, sorted pages and batched export. */
export class AdminUsersRepo {
  constructor(private readonly db: Kysely<Database>) {}

  private filtered(f: UserFilter, scope: ListScope, db: Db = this.db): UsersQuery {
    // Filters look at users only; the group's columns are joined for the page rows alone,
    // so the count reads one table.
    let q = db.selectFrom('users').where('users.deleted_at', 'is', null);
    if (!scope.all) q = q.where('users.group_id', '=', scope.groupId);
    if (f.group_id !== undefined) {
      // A group id beyond the id range names no group: nothing matches.
      q = isRowId(f.group_id) ? q.where('users.group_id', '=', f.group_id) : q.where(sql<boolean>`1 = 0`);
    }
    if (f.role) q = q.where('users.role', '=', f.role);
    if (f.status) q = q.where('users.status', '=', f.status);
    if (f.search) {
      const p = likeContains(f.search);
      q = q.where((eb) =>
        eb.or([
          eb(sql`lower(users.username)`, 'like', sql`${p} escape '!'`),
          eb(sql`users.email`, 'like', sql`${p} escape '!'`),
          eb(sql`coalesce(users.phone, '')`, 'like', sql`${p} escape '!'`),
        ]),
      );
    }
    return q;
  }

  private withGroupColumns(q: UsersQuery) {
    return q
      .leftJoin('user_groups', 'user_groups.id', 'users.group_id')
      .selectAll('users')
      .select([
        'user_groups.name as group_name',
        'user_groups.color as group_color',
        'user_groups.site_name as group_site_name',
        'user_groups.site_logo as group_site_logo',
        'user_groups.site_config_enabled as group_site_config_enabled',
      ]);
  }

  async page(
    f: UserFilter,
    scope: ListScope,
    page: number,
    limit: number,
  ): Promise<{ rows: UserWithGroup[]; total: number }> {
    const desc = f.sort.startsWith('-');
    const column = SORT_COLUMNS[f.sort.replace(/^-/, '') as UserSortField];
    const direction = desc ? sql`desc` : sql`asc`;
    const rows = await this.withGroupColumns(this.filtered(f, scope))
      .orderBy(sql`${column} ${direction}`)
      .orderBy('users.id', desc ? 'desc' : 'asc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute();
    // A short first page already is the whole result: counting would scan the table again
    // (the costly case is a search that matches little or nothing).
    if (page === 1 && rows.length < limit) return { rows, total: rows.length };
    const count = await this.filtered(f, scope)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { rows, total: Number(count.n) };
  }

  /** The next batch of matching users after `afterId`, in id order (for the streamed CSV export). */
  async batchAfter(f: UserFilter, scope: ListScope, afterId: number, size: number): Promise<UserWithGroup[]> {
    const rows = await this.withGroupColumns(this.filtered(f, scope))
      .where('users.id', '>', afterId)
      .orderBy('users.id')
      .limit(size)
      .execute();
    return rows;
  }

  /** Extra permissions of several users at once, so a page costs one query, not one per row. */
  async extraPermissionsOf(ids: readonly number[]): Promise<Map<number, string[]>> {
    const map = new Map<number, string[]>();
    if (ids.length === 0) return map;
    const rows = await this.db
      .selectFrom('user_permissions')
      .select(['user_id', 'permission'])
      .where('user_id', 'in', ids)
      .execute();
    for (const r of rows) map.set(r.user_id, [...(map.get(r.user_id) ?? []), r.permission]);
    return map;
  }

  /**
   * Locks a live user's row for the rest of the transaction and returns it, so the
   * checks made on it (scope, balance, group) hold until the change commits.
   */
  lock(id: number, db: Db, now: string): Promise<UserRow | undefined> {
    if (!isRowId(id)) return Promise.resolve(undefined);
    return db
      .updateTable('users')
      .set({ updated_at: now })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * Locks the live users among `ids`, one row at a time in ascending id order, so that
   * two bulk actions over overlapping users queue up instead of deadlocking.
   */
  async lockLive(ids: readonly number[], db: Db, now: string): Promise<UserRow[]> {
    const locked: UserRow[] = [];
    for (const id of [...ids].sort((a, b) => a - b)) {
      const row = await this.lock(id, db, now);
      if (row) locked.push(row);
    }
    return locked;
  }

  async updateMany(
    ids: readonly number[],
    patch: Partial<Pick<UserRow, 'status' | 'group_id' | 'updated_at'>>,
    db: Db,
  ) {
    await db.updateTable('users').set(patch).where('id', 'in', ids).execute();
  }
}
