import type { Kysely } from 'kysely';
import type { Database, Db } from '../../db/types.js';
import { CatalogGrantsRepo, type ClosedGrant } from '../catalog/catalog-grants.repo.js';
import { MODEL_CATALOG, MODULE_CATALOG } from '../catalog/catalog-kinds.js';

export type { ClosedGrant };

/**
 * What deleting a group does to the models and modules granted to groups: one granted
 * only to the deleted group would be open to every group once its grant rows cascade
 * away, so it is switched off instead (CatalogGrantsRepo.closeSoleGrants).
 */
export class GroupGrantsRepo {
  private readonly models: CatalogGrantsRepo;
  private readonly modules: CatalogGrantsRepo;

  constructor(db: Kysely<Database>) {
    this.models = new CatalogGrantsRepo(db, MODEL_CATALOG);
    this.modules = new CatalogGrantsRepo(db, MODULE_CATALOG);
  }

  /** Call it in the deletion's transaction, after the group row is locked and before it is deleted. */
  async closeSoleGrants(
    groupId: number,
    now: string,
    db: Db,
  ): Promise<{ models: ClosedGrant[]; modules: ClosedGrant[] }> {
    return {
      models: await this.models.closeSoleGrants(groupId, now, db),
      modules: await this.modules.closeSoleGrants(groupId, now, db),
    };
  }
}
