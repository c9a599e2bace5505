import type { Kysely } from 'kysely';
import type { Database, Db } from '../../db/types.js';

/** Each row is one top-level section of the configuration, stored as JSON text. */
function parseRows(rows: { key: string; value: string }[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const r of rows) {
    try {
      out[r.key] = JSON.parse(r.value);
    } catch {
      // A hand-edited, unreadable row falls back to defaults instead of breaking sign-in.
    }
  }
  return out;
}

export class SettingsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async readAll(db: Db = this.db): Promise<Record<string, unknown>> {
    return parseRows(await db.selectFrom('system_settings').select(['key', 'value']).execute());
  }

  /**
   * Reads every section and, on PostgreSQL, locks the rows until the transaction ends
   * (a no-op update takes the row locks; SQLite writers are serialised anyway), so two
   * administrators saving at once cannot overwrite each other's merge.
   */
  async lockAll(trx: Db): Promise<Record<string, unknown>> {
    const rows = await trx
      .updateTable('system_settings')
      .set((eb) => ({ updated_at: eb.ref('updated_at') }))
      .returning(['key', 'value'])
      .execute();
    return parseRows(rows);
  }

  async writeSection(key: string, value: unknown, now: string, db: Db = this.db): Promise<void> {
    await db
      .insertInto('system_settings')
      .values({ key, value: JSON.stringify(value), updated_at: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: now }))
      .execute();
  }

  async insertSectionIfMissing(key: string, value: unknown, now: string): Promise<void> {
    await this.db
      .insertInto('system_settings')
      .values({ key, value: JSON.stringify(value), updated_at: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
  }

  /** Settings that name other rows must name existing ones. */
  async modelExists(name: string, db: Db = this.db): Promise<boolean> {
    return !!(await db.selectFrom('ai_models').select('id').where('name', '=', name).executeTakeFirst());
  }

  async groupExists(id: number, db: Db = this.db): Promise<boolean> {
    return !!(await db.selectFrom('user_groups').select('id').where('id', '=', id).executeTakeFirst());
  }
}
