import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';

export class SettingsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async readAll(): Promise<Record<string, unknown>> {
    const rows = await this.db.selectFrom('system_settings').select(['key', 'value']).execute();
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

  async writeSection(key: string, value: unknown, now: string): Promise<void> {
    await this.db
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
}
