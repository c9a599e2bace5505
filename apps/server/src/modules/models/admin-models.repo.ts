import { type ExpressionBuilder, type Insertable, type Kysely, PostgresAdapter, type Updateable } from 'kysely';
import type { AiModelRow, AiModelsTable, Database, Db } from '../../db/types.js';

/**
 * The availability rule as the administration reads it: a model without group rows is
 * for every group; one with rows only for those groups. Unlike the chat side, inactive
 * models are included — an administrator sees them to switch them back on.
 */
function availableTo(groupId: number) {
  return (eb: ExpressionBuilder<Database, 'ai_models'>) =>
    eb.or([
      eb.not(
        eb.exists(
          eb.selectFrom('ai_model_groups as g').select('g.model_id').whereRef('g.model_id', '=', 'ai_models.id'),
        ),
      ),
      eb.exists(
        eb
          .selectFrom('ai_model_groups as g')
          .select('g.model_id')
          .whereRef('g.model_id', '=', 'ai_models.id')
          .where('g.group_id', '=', groupId),
      ),
    ]);
}

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

/** The only SQL of the model administration: rows, their groups, locks. */
export class AdminModelsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Every model (or those a group may use), in the administrators' order. */
  list(opts: { availableToGroup?: number } = {}, db: Db = this.db): Promise<AiModelRow[]> {
    let q = db.selectFrom('ai_models').selectAll();
    if (opts.availableToGroup !== undefined) q = q.where(availableTo(opts.availableToGroup));
    return q.orderBy('sort_order').orderBy('id').execute();
  }

  findById(id: number, db: Db = this.db): Promise<AiModelRow | undefined> {
    return db.selectFrom('ai_models').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** True when the group may use the model (no group rows, or a row for that group). */
  async isAvailableTo(id: number, groupId: number, db: Db = this.db): Promise<boolean> {
    const row = await db
      .selectFrom('ai_models')
      .select('id')
      .where('id', '=', id)
      .where(availableTo(groupId))
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Locks the model row for the rest of the transaction (a no-op update takes the row
   * lock on PostgreSQL; SQLite writers are serialised anyway) and returns it.
   */
  lock(id: number, db: Db): Promise<AiModelRow | undefined> {
    return db
      .updateTable('ai_models')
      .set((eb) => ({ id: eb.ref('id') }))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async insert(row: Insertable<AiModelsTable>, db: Db): Promise<number> {
    const r = await db.insertInto('ai_models').values(row).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  async update(id: number, patch: Updateable<AiModelsTable>, db: Db): Promise<void> {
    // An edit that changes nothing is not an UPDATE with an empty SET (invalid SQL).
    if (Object.keys(patch).length === 0) return;
    await db.updateTable('ai_models').set(patch).where('id', '=', id).execute();
  }

  /** Removes the model; its group rows go with it (ON DELETE CASCADE). */
  async delete(id: number, db: Db): Promise<void> {
    await db.deleteFrom('ai_models').where('id', '=', id).execute();
  }

  async groupIds(modelId: number, db: Db = this.db): Promise<number[]> {
    const rows = await db
      .selectFrom('ai_model_groups')
      .select('group_id')
      .where('model_id', '=', modelId)
      .orderBy('group_id')
      .execute();
    return rows.map((r) => r.group_id);
  }

  /** Group ids per model for a whole list, in one query. */
  async groupIdsOf(modelIds: readonly number[], db: Db = this.db): Promise<Map<number, number[]>> {
    const byModel = new Map<number, number[]>();
    if (modelIds.length === 0) return byModel;
    const rows = await db
      .selectFrom('ai_model_groups')
      .select(['model_id', 'group_id'])
      .where('model_id', 'in', modelIds)
      .orderBy('group_id')
      .execute();
    for (const r of rows) byModel.set(r.model_id, [...(byModel.get(r.model_id) ?? []), r.group_id]);
    return byModel;
  }

  async replaceGroups(modelId: number, groupIds: readonly number[], db: Db): Promise<void> {
    await db.deleteFrom('ai_model_groups').where('model_id', '=', modelId).execute();
    if (groupIds.length === 0) return;
    await db
      .insertInto('ai_model_groups')
      .values(groupIds.map((group_id) => ({ model_id: modelId, group_id })))
      .execute();
  }

  /**
   * Which of these groups exist, holding them (FOR SHARE on PostgreSQL) until the
   * transaction ends. A group being deleted holds its row first, so a model can never be
   * restricted to a group whose deletion has already decided which models lose their
   * last group. Taken before the model row: groups, then models, in every transaction.
   */
  async holdGroups(ids: readonly number[], db: Db): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const q = db.selectFrom('user_groups').select('id').where('id', 'in', ids).orderBy('id');
    const rows = await (isPostgres(db) ? q.forShare() : q).execute();
    return new Set(rows.map((r) => r.id));
  }
}
