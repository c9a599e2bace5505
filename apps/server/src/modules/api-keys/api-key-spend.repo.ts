import type { Kysely } from 'kysely';
import type { ApiKeyRow, Database } from '../../db/types.js';
import { ApiTurnsRepo } from '../api-usage/api-turns.repo.js';
import { periodStartDay } from '../api-usage/key-period.js';
import { dayIn } from '../stats/stats-calendar.js';

/**
 * What a key spent in its current period: the cost of its `/v1` requests not refunded whose
 * statistics day falls in the period, the same count the reservation holds the key's credit
 * limit to (`api-usage/api-accounting.ts`).
 */
export class ApiKeySpendRepo {
  private readonly turns: ApiTurnsRepo;

  constructor(
    private readonly db: Kysely<Database>,
    /** The statistics time zone: periods start at its midnights. */
    private readonly timeZone: () => Promise<string>,
  ) {
    this.turns = new ApiTurnsRepo(db);
  }

  /** Credits each key spent in its current period (its whole life for `total`), by key id. */
  async spentInPeriod(keys: readonly ApiKeyRow[], now: Date): Promise<Map<number, number>> {
    if (keys.length === 0) return new Map();
    const today = dayIn(now, await this.timeZone());
    const spent = await Promise.all(
      keys.map((k) => this.turns.spentSince(this.db, k.id, periodStartDay(k.period ?? 'total', today))),
    );
    return new Map(keys.map((k, i) => [k.id, spent[i] ?? 0]));
  }
}
