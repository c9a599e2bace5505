import { type Kysely, type Insertable, sql } from 'kysely';
import type { ApiKeyRow, ApiKeysTable, Database, Db } from '../../db/types.js';
import type { ListScope } from '../../policies/policy.js';

/** `!` escapes LIKE wildcards the same way on SQLite and PostgreSQL. */
const likeContains = (text: string) => `%${text.toLowerCase().replace(/[!%_]/g, '!$&')}%`;

/** A key with its owner, as administrators list it and as revoking checks the owner's scope. */
export interface ApiKeyWithOwner extends ApiKeyRow {
  username: string;
  email: string;
  owner_group_id: number | null;
  owner_role: 'super_admin' | 'admin' | 'user';
}

export interface AdminKeyFilter {
  userId?: number | undefined;
  search?: string | undefined;
}

/** Personal API keys: stored by the SHA-256 of their secret only. */
export class ApiKeysRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: Omit<Insertable<ApiKeysTable>, 'id'>, db: Db = this.db): Promise<number> {
    const r = await db.insertInto('api_keys').values(row).returning('id').executeTakeFirstOrThrow();
    return Number(r.id);
  }

  /** A key by the hash of its secret, whatever its state (the caller decides what a state means). */
  findByHash(secretHash: string): Promise<ApiKeyRow | undefined> {
    return this.db.selectFrom('api_keys').selectAll().where('secret_hash', '=', secretHash).executeTakeFirst();
  }

  findById(id: number, db: Db = this.db): Promise<ApiKeyRow | undefined> {
    return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** A user's keys, newest first, revoked ones included (the list shows their state). */
  listOfUser(userId: number): Promise<ApiKeyRow[]> {
    return this.db.selectFrom('api_keys').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').execute();
  }

  /** Live keys of a user, counted under the caller's transaction. */
  async countLive(userId: number, now: string, db: Db): Promise<number> {
    const r = await db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Revokes one key unless already revoked; true when this call revoked it. */
  async revoke(id: number, now: string, db: Db): Promise<boolean> {
    const r = await db
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Revokes every live key of these users (an account disabled or retired); answers how many. */
  async revokeAllOf(userIds: readonly number[], now: string, db: Db): Promise<number> {
    if (userIds.length === 0) return 0;
    const r = await db
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('user_id', 'in', userIds)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /** Records a use, unless one was recorded since `notBefore` (at most one write a minute per key). */
  async touch(id: number, now: string, notBefore: string): Promise<void> {
    await this.db
      .updateTable('api_keys')
      .set({ last_used_at: now })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', notBefore)]))
      .execute();
  }

  private withOwner(db: Db) {
    return db
      .selectFrom('api_keys')
      .innerJoin('users', 'users.id', 'api_keys.user_id')
      .selectAll('api_keys')
      .select([
        'users.username as username',
        'users.email as email',
        'users.group_id as owner_group_id',
        'users.role as owner_role',
      ]);
  }

  findWithOwner(id: number, db: Db = this.db): Promise<ApiKeyWithOwner | undefined> {
    return this.withOwner(db).where('api_keys.id', '=', id).executeTakeFirst();
  }

  /** A page of keys within the administrator's reach, newest first, with the count of all that match. */
  async page(
    f: AdminKeyFilter,
    scope: ListScope,
    page: number,
    limit: number,
  ): Promise<{ rows: ApiKeyWithOwner[]; total: number }> {
    let q = this.withOwner(this.db).where('users.deleted_at', 'is', null);
    if (!scope.all) q = q.where('users.group_id', '=', scope.groupId);
    if (f.userId !== undefined) q = q.where('api_keys.user_id', '=', f.userId);
    if (f.search) {
      const p = likeContains(f.search);
      q = q.where((eb) =>
        eb.or([
          eb(sql`lower(api_keys.name)`, 'like', sql`${p} escape '!'`),
          eb(sql`lower(api_keys.prefix)`, 'like', sql`${p} escape '!'`),
          eb(sql`lower(users.username)`, 'like', sql`${p} escape '!'`),
          eb(sql`users.email`, 'like', sql`${p} escape '!'`),
        ]),
      );
    }
    const rows = await q
      .orderBy('api_keys.id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute();
    const count = await q
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { rows, total: Number(count.n) };
  }
}
