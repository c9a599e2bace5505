import type { ExpressionBuilder, Insertable, Kysely, Updateable } from 'kysely';
import type { Database, ModuleRow, ModulesTable, Db } from '../../db/types.js';

export interface ModuleHealthUpdate {
  health_status: 'up' | 'down';
  health_latency_ms: number;
  health_checked_at: string;
}

/**
 * The visibility rule: a module without `module_groups` rows is for every group; one with
 * rows only for those groups. A user without a group sees only modules meant for everyone.
 */
function visibleTo(groupId: number | null) {
  return (eb: ExpressionBuilder<Database, 'modules'>) =>
    eb.or([
      eb.not(
        eb.exists(eb.selectFrom('module_groups as g').select('g.module_id').whereRef('g.module_id', '=', 'modules.id')),
      ),
      ...(groupId === null
        ? []
        : [
            eb.exists(
              eb
                .selectFrom('module_groups as g')
                .select('g.module_id')
                .whereRef('g.module_id', '=', 'modules.id')
                .where('g.group_id', '=', groupId),
            ),
          ]),
    ]);
}

/** The only SQL about modules and their group visibility. */
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

  async delete(id: number, db: Db): Promise<void> {
    await db.deleteFrom('module_groups').where('module_id', '=', id).execute();
    await db.deleteFrom('modules').where('id', '=', id).execute();
  }

  async groupIds(moduleId: number, db: Db = this.db): Promise<number[]> {
    const rows = await db
      .selectFrom('module_groups')
      .select('group_id')
      .where('module_id', '=', moduleId)
      .orderBy('group_id')
      .execute();
    return rows.map((r) => r.group_id);
  }

  /** Group ids per module for a page of modules, in one query. */
  async groupIdsOf(moduleIds: readonly number[]): Promise<Map<number, number[]>> {
    const byModule = new Map<number, number[]>();
    if (moduleIds.length === 0) return byModule;
    const rows = await this.db
      .selectFrom('module_groups')
      .select(['module_id', 'group_id'])
      .where('module_id', 'in', moduleIds)
      .orderBy('group_id')
      .execute();
    for (const r of rows) byModule.set(r.module_id, [...(byModule.get(r.module_id) ?? []), r.group_id]);
    return byModule;
  }

  async replaceGroups(moduleId: number, groupIds: readonly number[], db: Db): Promise<void> {
    await db.deleteFrom('module_groups').where('module_id', '=', moduleId).execute();
    if (groupIds.length === 0) return;
    await db
      .insertInto('module_groups')
      .values(groupIds.map((group_id) => ({ module_id: moduleId, group_id })))
      .execute();
  }

  /** Which of these group ids exist. */
  async existingGroupIds(ids: readonly number[], db: Db): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await db.selectFrom('user_groups').select('id').where('id', 'in', ids).execute();
    return new Set(rows.map((r) => r.id));
  }

  async recordHealth(id: number, health: ModuleHealthUpdate, db: Db = this.db): Promise<void> {
    await db.updateTable('modules').set(health).where('id', '=', id).execute();
  }

  /** The group a user belongs to, for the claims of a hand-off token. */
  findGroup(groupId: number) {
    return this.db.selectFrom('user_groups').select(['id', 'name']).where('id', '=', groupId).executeTakeFirst();
  }
}
