/**
 * Models and modules are both catalog items granted to groups: an item without grant rows
 * is for every group, one with rows only for the groups they name. Each kind names its
 * tables here; the grant code in this folder is written once against these names.
 */
export const MODEL_CATALOG = {
  /** The audit rows' target type and the prefix of their actions. */
  target: 'model',
  items: 'ai_models',
  grants: 'ai_model_groups',
  /** The grant table's column holding the item id. */
  itemColumn: 'model_id',
  manage: 'model.manage',
} as const;

export const MODULE_CATALOG = {
  target: 'module',
  items: 'modules',
  grants: 'module_groups',
  itemColumn: 'module_id',
  manage: 'module.manage',
} as const;

export type CatalogKind = typeof MODEL_CATALOG | typeof MODULE_CATALOG;
export const CATALOG_KINDS: readonly CatalogKind[] = [MODEL_CATALOG, MODULE_CATALOG];
