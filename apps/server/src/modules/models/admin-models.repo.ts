import type { Insertable, Kysely, Updateable } from 'kysely';
import type { AiModelRow, AiModelsTable, Database, Db } from '../../db/types.js';
import { grantedTo } from '../catalog/catalog-grants.repo.js';
import { MODEL_CATALOG } from '../catalog/catalog-kinds.js';

/**
 * The availability rule as the administration reads it (see catalog-kinds.ts). Unlike the
 * chat side, inactive models are included — an administrator sees them to switch them back on.
 */
const availableTo = (groupId: number) => grantedTo(MODEL_CATALOG, 'ai_models.id', groupId);

/** The only SQL of the model administration: rows and locks (their groups: CatalogGrantsRepo). */
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
}
