import type { Kysely } from 'kysely';
import type { Database, Db } from '../../db/types.js';

/** A model or module that lost its last allowed group. */
export interface ClosedGrant {
  id: number;
  wasActive: boolean;
}

/**
 * What deleting a group does to the models and modules restricted to groups. Their group
 * rows cascade away with the group, and a model or module without group rows is open to
 * every group — so one that only the deleted group could use would suddenly be open to
 * all. Instead it is switched off, and an administrator decides who gets it next.
 */
export class GroupGrantsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Deactivates every model and module whose only group is `groupId`; call it in the
   * deletion's transaction, after the group row is locked and before it is deleted.
   * Each affected row is locked first (ascending ids, so two deletions queue up instead
   * of deadlocking) and its groups counted after, so a concurrent change of its group
   * list is either fully before or fully after this decision.
   */
  async closeSoleGrants(
    groupId: number,
    now: string,
    db: Db = this.db,
  ): Promise<{ models: ClosedGrant[]; modules: ClosedGrant[] }> {
    return {
      models: await this.closeModels(groupId, now, db),
      modules: await this.closeModules(groupId, now, db),
    };
  }

  private async closeModels(groupId: number, now: string, db: Db): Promise<ClosedGrant[]> {
    const ids = await db
      .selectFrom('ai_model_groups')
      .select('model_id as id')
      .where('group_id', '=', groupId)
      .orderBy('model_id')
      .execute();
    const closed: ClosedGrant[] = [];
    for (const { id } of ids) {
      const row = await db
        .updateTable('ai_models')
        .set((eb) => ({ id: eb.ref('id') }))
        .where('id', '=', id)
        .returning(['id', 'is_active'])
        .executeTakeFirst();
      if (!row) continue;
      const others = await db
        .selectFrom('ai_model_groups')
        .select('group_id')
        .where('model_id', '=', id)
        .where('group_id', '!=', groupId)
        .executeTakeFirst();
      if (others) continue;
      await db.updateTable('ai_models').set({ is_active: 0, updated_at: now }).where('id', '=', id).execute();
      closed.push({ id: row.id, wasActive: row.is_active === 1 });
    }
    return closed;
  }

  private async closeModules(groupId: number, now: string, db: Db): Promise<ClosedGrant[]> {
    const ids = await db
      .selectFrom('module_groups')
      .select('module_id as id')
      .where('group_id', '=', groupId)
      .orderBy('module_id')
      .execute();
    const closed: ClosedGrant[] = [];
    for (const { id } of ids) {
      const row = await db
        .updateTable('modules')
        .set((eb) => ({ id: eb.ref('id') }))
        .where('id', '=', id)
        .returning(['id', 'is_active'])
        .executeTakeFirst();
      if (!row) continue;
      const others = await db
        .selectFrom('module_groups')
        .select('group_id')
        .where('module_id', '=', id)
        .where('group_id', '!=', groupId)
        .executeTakeFirst();
      if (others) continue;
      await db.updateTable('modules').set({ is_active: 0, updated_at: now }).where('id', '=', id).execute();
      closed.push({ id: row.id, wasActive: row.is_active === 1 });
    }
    return closed;
  }
}
