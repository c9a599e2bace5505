import type { Kysely } from 'kysely';
import type { Database, Db } from '../../db/types.js';

/** Stored first answers of requests sent with an Idempotency-Key. */
export class IdempotencyRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Claims the key inside the transaction; a second claim waits for the first and then fails as a duplicate. */
  async claim(trx: Db, actorId: number, key: string, fingerprint: string, now: string): Promise<void> {
    await trx
      .insertInto('idempotency_keys')
      .values({ actor_id: actorId, key, fingerprint, response: null, created_at: now })
      .execute();
  }

  async saveResponse(trx: Db, actorId: number, key: string, response: string): Promise<void> {
    await trx
      .updateTable('idempotency_keys')
      .set({ response })
      .where('actor_id', '=', actorId)
      .where('key', '=', key)
      .execute();
  }

  find(actorId: number, key: string) {
    return this.db
      .selectFrom('idempotency_keys')
      .select(['fingerprint', 'response'])
      .where('actor_id', '=', actorId)
      .where('key', '=', key)
      .executeTakeFirst();
  }

  async pruneBefore(before: string): Promise<void> {
    await this.db.deleteFrom('idempotency_keys').where('created_at', '<', before).execute();
  }
}
