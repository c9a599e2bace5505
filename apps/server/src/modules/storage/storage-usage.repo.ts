import type { Kysely } from 'kysely';
import type { Database, Db } from '../../db/types.js';

/** Avatars served from our own store; an address elsewhere holds no bytes of ours. */
const UPLOADED_AVATAR = '/api/avatars/%';

/** The settings row every budgeted upload locks: one row, so uploads pass the budget one at a time. */
const LOCK_KEY = 'storage';

/**
 * Remembers that super administrators were told storage is nearly full, so they are told
 * once per rise. It lives beside the settings sections but is none of them (the settings
 * schema ignores unknown rows); present = sent, absent = armed.
 */
const ALERT_KEY = 'storage_alert';

export interface StoredBytes {
  images: number;
  avatars: number;
}

/** The bytes of stored uploads, counted from the database (so every instance agrees), and the site-wide upload lock. */
export class StorageUsageRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async stored(db: Db = this.db): Promise<StoredBytes> {
    const images = await db
      .selectFrom('files')
      .select((eb) => eb.fn.sum<number | string | null>('size').as('bytes'))
      .executeTakeFirstOrThrow();
    const avatars = await db
      .selectFrom('users')
      .select((eb) => eb.fn.sum<number | string | null>('avatar_bytes').as('bytes'))
      .where('avatar_url', 'like', UPLOADED_AVATAR)
      .executeTakeFirstOrThrow();
    return { images: Number(images.bytes ?? 0), avatars: Number(avatars.bytes ?? 0) };
  }

  /**
   * Takes the site-wide upload lock for the rest of the transaction (a no-op update of the
   * `storage` settings row: its row lock on PostgreSQL; SQLite writers are serialised
   * anyway). Taken after the owner's row, as every upload does, so the order never inverts.
   */
  async lockSite(trx: Db): Promise<void> {
    await trx
      .updateTable('system_settings')
      .set((eb) => ({ updated_at: eb.ref('updated_at') }))
      .where('key', '=', LOCK_KEY)
      .execute();
  }

  /** Marks the alert as sent; true only for the one caller that marked it. */
  async claimAlert(now: string): Promise<boolean> {
    const r = await this.db
      .insertInto('system_settings')
      .values({ key: ALERT_KEY, value: JSON.stringify({ sent_at: now }), updated_at: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  async alertSent(): Promise<boolean> {
    return !!(await this.db
      .selectFrom('system_settings')
      .select('key')
      .where('key', '=', ALERT_KEY)
      .executeTakeFirst());
  }

  /** Storage fell below the alert share again (or the alert could not be sent): the next rise alerts. */
  async rearmAlert(): Promise<void> {
    await this.db.deleteFrom('system_settings').where('key', '=', ALERT_KEY).execute();
  }

  /** The e-mail addresses of the active super administrators. */
  async superAdminEmails(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('users')
      .select('email')
      .where('role', '=', 'super_admin')
      .where('status', '=', 'active')
      .where('deleted_at', 'is', null)
      .execute();
    return rows.map((r) => r.email);
  }
}
