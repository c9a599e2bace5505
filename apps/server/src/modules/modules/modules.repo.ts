import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, Db, ModuleRow, ModulesTable } from '../../db/types.js';
import { grantedTo } from '../catalog/catalog-grants.repo.js';
import { MODULE_CATALOG } from '../catalog/catalog-kinds.js';

export interface ModuleHealthUpdate {
  health_status: 'up' | 'down';
  health_latency_ms: number;
  health_checked_at: string;
}

/** The visibility rule (see catalog-kinds.ts); a user without a group sees only modules meant for everyone. */
const visibleTo = (groupId: number | null) => grantedTo(MODULE_CATALOG, 'modules.id', groupId);

/** The only SQL about modules (their groups: CatalogGrantsRepo). */
export class ModulesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** The menu: active modules the group may see, in menu order. */
  findActiveFor(groupId: number | null) {
    return this.db
      .selectFrom('modules')
      .select(['id', 'name', 'display_name', 'menu_icon', 'open_mode', 'module_url', 'is_active'])
      .where('is_active', '=', 1)
      .where(visibleTo(groupId))
      .orderBy('sort_order')
      .orderBy('id')
      .execute();
  }

  /** One active module by name, only when the group may see it. */
  findActiveByNameFor(name: string, groupId: number | null): Promise<ModuleRow | undefined> {
    return this.db
      .selectFrom('modules')
      .selectAll()
      .where('name', '=', name)
      .where('is_active', '=', 1)
      .where(visibleTo(groupId))
      .executeTakeFirst();
  }

  /** Every module (or only those a group sees), in menu order. */
  list(opts: { visibleToGroup?: number }): Promise<ModuleRow[]> {
    let q = this.db.selectFrom('modules').selectAll();
    if (opts.visibleToGroup !== undefined) q = q.where(visibleTo(opts.visibleToGroup));
    return q.orderBy('sort_order').orderBy('id').execute();
  }

  listActive(): Promise<ModuleRow[]> {
    return this.db.selectFrom('modules').selectAll().where('is_active', '=', 1).orderBy('id').execute();
  }

  findById(id: number, db: Db = this.db): Promise<ModuleRow | undefined> {
    return db.selectFrom('modules').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Locks the module row for the rest of the transaction (a no-op update takes the row
   * lock on PostgreSQL; SQLite writers are serialised anyway) and returns it.
   */
  lock(id: number, db: Db): Promise<ModuleRow | undefined> {
    return db
      .updateTable('modules')
      .set((eb) => ({ id: eb.ref('id') }))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async insert(row: Insertable<ModulesTable>, db: Db): Promise<number> {
    const r = await db.insertInto('modules').values(row).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  async update(id: number, patch: Updateable<ModulesTable>, db: Db): Promise<void> {
    // An edit that changes nothing is not an UPDATE with an empty SET (invalid SQL).
    if (Object.keys(patch).length === 0) return;
    await db.updateTable('modules').set(patch).where('id', '=', id).execute();
  }

  /** Removes the module; its group rows go with it (ON DELETE CASCADE). */
  async delete(id: number, db: Db): Promise<void> {
    await db.deleteFrom('modules').where('id', '=', id).execute();
  }

  async recordHealth(id: number, health: ModuleHealthUpdate, db: Db = this.db): Promise<void> {
    await db.updateTable('modules').set(health).where('id', '=', id).execute();
  }

  /** The group a user belongs to, for the claims of a hand-off token. */
  findGroup(groupId: number) {
    return this.db.selectFrom('user_groups').select(['id', 'name']).where('id', '=', groupId).executeTakeFirst();
  }
}
