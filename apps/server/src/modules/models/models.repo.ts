import type { Insertable, Kysely } from 'kysely';
import { reusableQuery } from '../../db/reusable-query.js';
import type { AiModelRow, AiModelsTable, Database } from '../../db/types.js';
import { InputError } from '../../lib/http/errors.js';
import { CatalogGrantsRepo, grantedTo } from '../catalog/catalog-grants.repo.js';
import { MODEL_CATALOG } from '../catalog/catalog-kinds.js';

export type NewAiModel = Insertable<AiModelsTable>;

export class ModelsRepo {
  private readonly grants: CatalogGrantsRepo;

  constructor(private readonly db: Kysely<Database>) {
    this.grants = new CatalogGrantsRepo(db, MODEL_CATALOG);
  }

  /**
   * Active chat models a member of the group may use (the catalog's rule: no group rows =
   * everyone). Embedding models only turn text into vectors: never offered for a chat.
   */
  private usable(groupId: number | null) {
    return this.granted(groupId).where('m.kind', '=', 'chat');
  }

  /** Active models of any kind a member of the group may use. */
  private granted(groupId: number | null) {
    return this.db
      .selectFrom('ai_models as m')
      .selectAll('m')
      .where('m.is_active', '=', 1)
      .where(grantedTo(MODEL_CATALOG, 'm.id', groupId));
  }

  /** Chat and embedding models the group may use (what `/v1` offers), in the administrators' order. */
  findUsableAnyKind(groupId: number | null): Promise<AiModelRow[]> {
    return this.granted(groupId).orderBy('m.sort_order').orderBy('m.id').execute();
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
      const { held, missing } = await this.grants.hold(groupIds, trx);
      if (missing.length > 0) throw new InputError(['validation.group.notFound']);
      await this.grants.replace(modelId, held, trx);
    });
  }
}
