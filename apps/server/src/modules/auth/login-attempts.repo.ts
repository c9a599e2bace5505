import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';

export class LoginAttemptsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Records an attempt as failed before it is checked; the caller settles it afterwards. */
  async insertPending(accountKey: string, ip: string, now: string): Promise<number> {
    const r = await this.db
      .insertInto('login_attempts')
      .values({ account_key: accountKey, ip, succeeded: 0, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  }

  async markSucceeded(id: number) {
    await this.db.updateTable('login_attempts').set({ succeeded: 1 }).where('id', '=', id).execute();
  }

  async remove(id: number) {
    await this.db.deleteFrom('login_attempts').where('id', '=', id).execute();
  }

  /** Failures for the account since `since` and since its last success. */
  async countAccountFailures(accountKey: string, since: string): Promise<number> {
    const lastOk = await this.db
      .selectFrom('login_attempts')
      .select((eb) => eb.fn.max('created_at').as('t'))
      .where('account_key', '=', accountKey)
      .where('succeeded', '=', 1)
      .executeTakeFirst();
    const from = lastOk?.t && lastOk.t > since ? lastOk.t : since;
    return this.countFailures('account_key', accountKey, from);
  }

  /**
   * Failures of one account from one client address since `since` and since that pair's
   * last success, leaving out the try `exceptId` itself: how many, and when the latest was.
   */
  async pairFailures(
    accountKey: string,
    ip: string,
    since: string,
    exceptId: number,
  ): Promise<{ count: number; last: string | null }> {
    const lastOk = await this.db
      .selectFrom('login_attempts')
      .select((eb) => eb.fn.max('created_at').as('t'))
      .where('account_key', '=', accountKey)
      .where('ip', '=', ip)
      .where('succeeded', '=', 1)
      .executeTakeFirst();
    const from = lastOk?.t && lastOk.t > since ? lastOk.t : since;
    const r = await this.db
      .selectFrom('login_attempts')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.max('created_at').as('last')])
      .where('account_key', '=', accountKey)
      .where('ip', '=', ip)
      .where('succeeded', '=', 0)
      .where('created_at', '>', from)
      .where('id', '<>', exceptId)
      .executeTakeFirstOrThrow();
    return { count: Number(r.n), last: r.last ?? null };
  }

  countIpFailures(ip: string, since: string): Promise<number> {
    return this.countFailures('ip', ip, since);
  }

  private async countFailures(column: 'account_key' | 'ip', value: string, since: string): Promise<number> {
    const r = await this.db
      .selectFrom('login_attempts')
      .select((eb) => eb.fn.countAll().as('n'))
      .where(column, '=', value)
      .where('succeeded', '=', 0)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async pruneBefore(before: string) {
    await this.db.deleteFrom('login_attempts').where('created_at', '<', before).execute();
  }
}
