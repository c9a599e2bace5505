import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';

export class ModulesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  findActive() {
    return this.db
      .selectFrom('modules')
      .select(['id', 'name', 'display_name', 'menu_icon', 'open_mode', 'module_url', 'is_active'])
      .where('is_active', '=', 1)
      .orderBy('sort_order')
      .orderBy('id')
      .execute();
  }
}
