import type { Insertable, Kysely } from 'kysely';
import { reusableQuery } from '../../db/reusable-query.js';
import type { AiModelRow, AiModelsTable, Database } from '../../db/types.js';

export type NewAiModel = Insertable<AiModelsTable>;

export class ModelsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Active models a member of the group may use: no group rows = everyone; else the group must be listed. */
  private usable(groupId: number | null) {
    return this.db
      .selectFrom('ai_models as m')
      .selectAll('m')
      .where('m.is_active', '=', 1)
      .where((eb) =>
        eb.or([
          eb.not(
            eb.exists(eb.selectFrom('ai_model_groups as g').select('g.model_id').whereRef('g.model_id', '=', 'm.id')),
          ),
          ...(groupId === null
            ? []
            : [
                eb.exists(
                  eb
                    .selectFrom('ai_model_groups as g')
                    .select('g.model_id')
                    .whereRef('g.model_id', '=', 'm.id')
                    .where('g.group_id', '=', groupId),
                ),
              ]),
        ]),
      );
  }

  findUsable(groupId: number | null): Promise<AiModelRow[]> {
    return this.usable(groupId).orderBy('m.sort_order').orderBy('m.id').execute();
  }

  /** Read on every send: its SQL is built once per shape (with a group, or without one). */
  async findUsableByName(name: string, groupId: number | null): Promise<AiModelRow | undefined> {
    const rows =
      groupId === null
        ? await this.usableByNameToAll(this.db, name)
        : await this.usableByNameInGroup(this.db, name, groupId);
    return rows[0];
  }

  private readonly usableByNameToAll = reusableQuery((name: string) =>
    this.usable(null).where('m.name', '=', name).limit(1),
  );
  private readonly usableByNameInGroup = reusableQuery((name: string, groupId: number) =>
    this.usable(groupId).where('m.name', '=', name).limit(1),
  );

  findByName(name: string): Promise<AiModelRow | undefined> {
    return this.db.selectFrom('ai_models').selectAll().where('name', '=', name).executeTakeFirst();
  }

  /** Inserts unless a model of that name exists (two instances may seed at once); true when inserted. */
  async insertIfMissing(model: NewAiModel): Promise<boolean> {
    const r = await this.db
      .insertInto('ai_models')
      .values(model)
      .onConflict((oc) => oc.column('name').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async insert(model: NewAiModel): Promise<number> {
    const r = await this.db.insertInto('ai_models').values(model).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  /** Replaces the groups allowed to use a model; an empty list opens it to every group. */
  async setGroups(modelId: number, groupIds: readonly number[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('ai_model_groups').where('model_id', '=', modelId).execute();
      if (groupIds.length > 0) {
        await trx
          .insertInto('ai_model_groups')
          .values(groupIds.map((group_id) => ({ model_id: modelId, group_id })))
          .execute();
      }
    });
  }
}
