import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { reusableQuery } from '../../db/reusable-query.js';
import type { Database, Db, NewUser, UserRow, UserUpdate } from '../../db/types.js';

/**
 * Row ids are 32-bit integers in both databases. A larger number names no row, and
 * must not reach PostgreSQL, which refuses it as out of range instead of finding nothing.
 */
export const MAX_ROW_ID = 2_147_483_647;
export const isRowId = (id: number): boolean => Number.isInteger(id) && id >= 1 && id <= MAX_ROW_ID;

export interface UserWithGroup extends UserRow {
  group_name: string | null;
  group_color: string | null;
  group_site_name: string | null;
  group_site_logo: string | null;
  group_site_config_enabled: number | null;
}

export class UsersRepo {
  constructor(private readonly db: Kysely<Database>) {}

  private withGroup(db: Db) {
    return db
      .selectFrom('users')
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

  /** A live (not retired) account with its group's display fields. */
  async findWithGroupById(id: number, db: Db = this.db): Promise<UserWithGroup | undefined> {
    return (await this.liveWithGroup(db, id))[0];
  }

  /** Read by every /auth/me: its SQL is built once. */
  private readonly liveWithGroup = reusableQuery((id: number) =>
    this.withGroup(this.db).where('users.id', '=', id).where('users.deleted_at', 'is', null),
  );

  /** Whether a live (not retired) account is disabled: only asked when its session is gone. */
  async isDisabled(id: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('status')
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row !== undefined && row.status !== 'active';
  }

  /**
   * The user of an access token, only while its session is alive: one indexed query,
   * which also answers the session's last-seen time for the idle timeout.
   */
  findForSession(userId: number, sessionId: string): Promise<(UserRow & { session_last_used_at: string }) | undefined> {
    return this.db
      .selectFrom('users')
      .innerJoin('auth_sessions', 'auth_sessions.user_id', 'users.id')
      .selectAll('users')
      .select('auth_sessions.last_used_at as session_last_used_at')
      .where('users.id', '=', userId)
      .where('auth_sessions.id', '=', sessionId)
      .where('auth_sessions.revoked_at', 'is', null)
      .where('users.deleted_at', 'is', null)
      .executeTakeFirst();
  }

  findByEmail(email: string, db: Db = this.db): Promise<UserRow | undefined> {
    return db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email.toLowerCase())
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  findByUsername(username: string, db: Db = this.db): Promise<UserRow | undefined> {
    return db
      .selectFrom('users')
      .selectAll()
      .where(sql`lower(username)`, '=', username.toLowerCase())
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  findByPhone(phone: string, db: Db = this.db): Promise<UserRow | undefined> {
    return db
      .selectFrom('users')
      .selectAll()
      .where('phone', '=', phone)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  async countUsers(): Promise<number> {
    const r = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async insert(user: NewUser, db: Db = this.db): Promise<number> {
    const r = await db.insertInto('users').values(user).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  async update(id: number, patch: UserUpdate, db: Db = this.db): Promise<void> {
    // An edit that only touches extra permissions has no column to set (SET with no columns is invalid SQL).
    if (Object.keys(patch).length === 0) return;
    await db.updateTable('users').set(patch).where('id', '=', id).execute();
  }

  /** Counts tokens spent by chats (DESIGN: usage per user). */
  async addTokensUsed(id: number, tokens: number, db: Db = this.db): Promise<void> {
    if (tokens <= 0) return;
    await this.addTokens(db, id, tokens);
  }

  // Once per answered turn: the SQL is built once.
  private readonly addTokens = reusableQuery((id: number, tokens: number) =>
    this.db
      .updateTable('users')
      .set({ token_used: sql`token_used + ${tokens}` })
      .where('id', '=', id),
  );

  async replaceExtraPermissions(userId: number, permissions: readonly string[], now: string, db: Db): Promise<void> {
    await db.deleteFrom('user_permissions').where('user_id', '=', userId).execute();
    if (permissions.length === 0) return;
    await db
      .insertInto('user_permissions')
      .values(permissions.map((permission) => ({ user_id: userId, permission, created_at: now })))
      .execute();
  }

  async extraPermissions(userId: number, db: Db = this.db): Promise<string[]> {
    const rows = await db.selectFrom('user_permissions').select('permission').where('user_id', '=', userId).execute();
    return rows.map((r) => r.permission);
  }

  /**
   * Every permission granted beyond the role's: the user's own and those of their group.
   * What a request may do is decided on these; `extraPermissions` are the user's own only.
   */
  async grantedPermissions(userId: number, db: Db = this.db): Promise<string[]> {
    const rows = await db
      .selectFrom('user_permissions')
      .select('permission')
      .where('user_id', '=', userId)
      .union(
        db
          .selectFrom('group_permissions')
          .innerJoin('users', 'users.group_id', 'group_permissions.group_id')
          .select('group_permissions.permission')
          .where('users.id', '=', userId),
      )
      .execute();
    return rows.map((r) => r.permission);
  }
}
