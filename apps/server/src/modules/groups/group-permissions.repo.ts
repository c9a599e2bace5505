import type { Kysely } from 'kysely';
import type { Database, Db } from '../../db/types.js';

/**
 * Permissions granted to every member of a group (`group_permissions`), beyond their role's.
 * The auth guard reads them with the user's own grants (UsersRepo.grantedPermissions); this
 * is where administrators read and replace a group's list.
 */
export class GroupPermissionsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Each group's permissions, sorted; a group without any is absent from the map. */
  async of(groupIds: readonly number[], db: Db = this.db): Promise<Map<number, string[]>> {
    const out = new Map<number, string[]>();
    if (groupIds.length === 0) return out;
    const rows = await db
      .selectFrom('group_permissions')
      .select(['group_id', 'permission'])
      .where('group_id', 'in', [...groupIds])
      .orderBy('permission')
      .execute();
    for (const r of rows) out.set(r.group_id, [...(out.get(r.group_id) ?? []), r.permission]);
    return out;
  }

  /** Replaces the group's list; call it in the change's transaction, the group row locked. */
  async replace(groupId: number, permissions: readonly string[], now: string, db: Db): Promise<void> {
    await db.deleteFrom('group_permissions').where('group_id', '=', groupId).execute();
    if (permissions.length === 0) return;
    await db
      .insertInto('group_permissions')
      .values(permissions.map((permission) => ({ group_id: groupId, permission, created_at: now })))
      .execute();
  }
}
