import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';

export class EmailCodeRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(email: string, codeHash: string, expiresAt: string, now: string) {
    // A new code replaces any earlier one still open for the address.
    await this.db
      .updateTable('email_codes')
      .set({ consumed_at: now })
      .where('email', '=', email)
      .where('consumed_at', 'is', null)
      .execute();
    await this.db
      .insertInto('email_codes')
      .values({ email, code_hash: codeHash, expires_at: expiresAt, attempts: 0, consumed_at: null, created_at: now })
      .execute();
  }

  findLatestOpen(email: string) {
    return this.db
      .selectFrom('email_codes')
      .selectAll()
      .where('email', '=', email)
      .where('consumed_at', 'is', null)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * Takes one try before the code is compared, in one conditional update: concurrent
   * guesses cannot all read the same counter and slip past the limit.
   */
  async takeTry(id: number, maxTries: number): Promise<boolean> {
    const r = await this.db
      .updateTable('email_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where('attempts', '<', maxTries)
      .where('consumed_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Consumes the code once; false when a concurrent request consumed it first. */
  async consume(id: number, now: string): Promise<boolean> {
    const r = await this.db
      .updateTable('email_codes')
      .set({ consumed_at: now })
      .where('id', '=', id)
      .where('consumed_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async pruneExpiredBefore(before: string) {
    await this.db.deleteFrom('email_codes').where('expires_at', '<', before).execute();
  }
}
