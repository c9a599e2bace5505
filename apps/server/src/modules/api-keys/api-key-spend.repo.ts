import type { Kysely } from 'kysely';
import type { ApiKeyRow, Database } from '../../db/types.js';

/**
 * What a key spent in its current period. The ledger does not yet record which key a
 * charge came through, so every key has spent nothing until it does; the `/v1` billing
 * fills this in from its ledger rows, and the key list and the key's credit limit read it.
 */
export class ApiKeySpendRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Credits each key spent in its current period (its whole life for `total`), by key id. */
  spentInPeriod(keys: readonly ApiKeyRow[], _now: Date): Promise<Map<number, number>> {
    void this.db;
    return Promise.resolve(new Map(keys.map((k) => [k.id, 0])));
  }
}
