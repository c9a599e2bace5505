import type { CapPeriod } from '@aiplatform/contracts';
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { CapSubjectType, Database, Db, UsageCapsTable } from '../../db/types.js';

export interface CapSubject {
  type: CapSubjectType;
  id: number;
}

export type CapRow = Pick<
  UsageCapsTable,
  'subject_type' | 'subject_id' | 'personal' | 'period' | 'model_name' | 'credits'
>;

/** One counter: a subject's credits in one window of one period, for one model or all (''). */
export interface CounterKey {
  subject: CapSubject;
  period: CapPeriod;
  modelName: string;
  windowStart: string;
  /** The first day of the next window (the seed sums the statistics days before it). */
  windowEnd: string;
}

/** The SQL of usage caps: their settings and the counters a reservation moves. */
export class CapsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** A subject's caps (administrator's and, for a user, personal ones). */
  caps(subject: CapSubject, db: Db = this.db): Promise<CapRow[]> {
    return db
      .selectFrom('usage_caps')
      .select(['subject_type', 'subject_id', 'personal', 'period', 'model_name', 'credits'])
      .where('subject_type', '=', subject.type)
      .where('subject_id', '=', subject.id)
      .orderBy('personal')
      .orderBy('period')
      .orderBy('model_name')
      .execute();
  }

  /** The caps that count a turn of `modelName` by this user in this group. */
  applicable(db: Db, userId: number, groupId: number | null, modelName: string): Promise<CapRow[]> {
    return db
      .selectFrom('usage_caps')
      .select(['subject_type', 'subject_id', 'personal', 'period', 'model_name', 'credits'])
      .where((eb) =>
        eb.and([
          eb.or([
            eb.and([eb('subject_type', '=', 'user'), eb('subject_id', '=', userId)]),
            ...(groupId === null ? [] : [eb.and([eb('subject_type', '=', 'group'), eb('subject_id', '=', groupId)])]),
          ]),
          eb('model_name', 'in', ['', modelName]),
        ]),
      )
      .execute();
  }

  /** Replaces a subject's caps of one kind (administrator's or personal). */
  async replaceCaps(
    trx: Db,
    subject: CapSubject,
    personal: boolean,
    caps: readonly { period: CapPeriod; credits: number; model_name: string }[],
    now: string,
  ): Promise<void> {
    await trx
      .deleteFrom('usage_caps')
      .where('subject_type', '=', subject.type)
      .where('subject_id', '=', subject.id)
      .where('personal', '=', personal ? 1 : 0)
      .execute();
    if (caps.length === 0) return;
    await trx
      .insertInto('usage_caps')
      .values(
        caps.map((c) => ({
          subject_type: subject.type,
          subject_id: subject.id,
          personal: personal ? 1 : 0,
          period: c.period,
          model_name: c.model_name,
          credits: c.credits,
          updated_at: now,
        })),
      )
      .execute();
  }

  /**
   * Forgets a subject's counters: while it had no cap its turns were not counted, so they
   * are seeded again from the statistics the next time a cap counts.
   */
  async dropCounters(trx: Db, subject: CapSubject): Promise<void> {
    await trx
      .deleteFrom('usage_cap_counters')
      .where('subject_type', '=', subject.type)
      .where('subject_id', '=', subject.id)
      .execute();
  }

  /**
   * Creates the counter if it is missing, starting from what the statistics already hold
   * for its window (committed turns, refunds subtracted), so a cap set mid-window counts
   * what was spent before it. A concurrent creator wins and this does nothing.
   */
  async seedCounter(trx: Db, k: CounterKey): Promise<void> {
    const used = await this.rollupSpent(trx, k);
    await trx
      .insertInto('usage_cap_counters')
      .values({
        subject_type: k.subject.type,
        subject_id: k.subject.id,
        period: k.period,
        model_name: k.modelName,
        window_start: k.windowStart,
        used: Number(used),
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  /** What the statistics hold as spent by the subject in the counter's window (refunds subtracted). */
  private async rollupSpent(db: Db, k: CounterKey): Promise<number> {
    const model = k.modelName ? [k.modelName] : null;
    const row =
      k.subject.type === 'user'
        ? await db
            .selectFrom('usage_daily')
            .select(sql<number>`coalesce(sum(credits), 0)`.as('s'))
            .where('user_id', '=', k.subject.id)
            .where('day', '>=', k.windowStart)
            .where('day', '<', k.windowEnd)
            .$if(model !== null, (q) => q.where('model_name', 'in', model ?? []))
            .executeTakeFirstOrThrow()
        : await db
            .selectFrom('usage_daily_totals')
            .select(sql<number>`coalesce(sum(credits), 0)`.as('s'))
            .where('group_id', '=', k.subject.id)
            .where('day', '>=', k.windowStart)
            .where('day', '<', k.windowEnd)
            .$if(model !== null, (q) => q.where('model_name', 'in', model ?? []))
            .executeTakeFirstOrThrow();
    return Number(row.s);
  }

  /** What a counter shows now: its row, or before any charge counted, the statistics. */
  async spent(k: CounterKey): Promise<number> {
    const row = await this.db.selectFrom('usage_cap_counters').where(sameCounter(k)).select('used').executeTakeFirst();
    return row ? Number(row.used) : this.rollupSpent(this.db, k);
  }

  /** A user as the policy sees them, for an administrator's action on their caps. */
  userTarget(id: number) {
    return this.db
      .selectFrom('users')
      .select(['id', 'group_id', 'role'])
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  async groupExists(id: number): Promise<boolean> {
    return !!(await this.db.selectFrom('user_groups').select('id').where('id', '=', id).executeTakeFirst());
  }

  subjectSettings(subject: CapSubject, db: Db = this.db) {
    return db
      .selectFrom('usage_cap_subjects')
      .select(['alerts', 'webhook_url'])
      .where('subject_type', '=', subject.type)
      .where('subject_id', '=', subject.id)
      .executeTakeFirst();
  }

  async saveSubjectSettings(trx: Db, subject: CapSubject, alerts: string, webhookUrl: string | null, now: string) {
    await trx
      .insertInto('usage_cap_subjects')
      .values({ subject_type: subject.type, subject_id: subject.id, alerts, webhook_url: webhookUrl, updated_at: now })
      .onConflict((oc) =>
        oc.columns(['subject_type', 'subject_id']).doUpdateSet({ alerts, webhook_url: webhookUrl, updated_at: now }),
      )
      .execute();
  }

  inTransaction<T>(run: (trx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(run);
  }

  /**
   * Adds `cost` to the counter only if it stays within `limit`: one conditional update,
   * which serialises concurrent turns on the row. Returns the new total, or undefined when
   * the cap refuses.
   */
  async addWithin(trx: Db, k: CounterKey, cost: number, limit: number): Promise<number | undefined> {
    const row = await trx
      .updateTable('usage_cap_counters')
      .where(sameCounter(k))
      .set({ used: sql<number>`used + ${cost}` })
      .where(sql<boolean>`used + ${cost} <= ${limit}`)
      .returning('used')
      .executeTakeFirst();
    return row ? Number(row.used) : undefined;
  }

  /** The counter's total; undefined when it has no row yet. */
  async used(trx: Db, k: CounterKey): Promise<number | undefined> {
    const row = await trx.selectFrom('usage_cap_counters').where(sameCounter(k)).select('used').executeTakeFirst();
    return row ? Number(row.used) : undefined;
  }

  /** Gives a refunded turn's cost back to every counter of its windows (never below zero). */
  async release(
    trx: Db,
    subject: CapSubject,
    windows: readonly { period: CapPeriod; windowStart: string }[],
    modelName: string,
    cost: number,
  ): Promise<void> {
    await trx
      .updateTable('usage_cap_counters')
      .set({ used: sql<number>`case when used > ${cost} then used - ${cost} else 0 end` })
      .where('subject_type', '=', subject.type)
      .where('subject_id', '=', subject.id)
      .where('model_name', 'in', ['', modelName])
      .where((eb) =>
        eb.or(windows.map((w) => eb.and([eb('period', '=', w.period), eb('window_start', '=', w.windowStart)]))),
      )
      .execute();
  }
}

/** The one counter row of a key. */
const sameCounter = (k: CounterKey) => (eb: ExpressionBuilder<Database, 'usage_cap_counters'>) =>
  eb.and([
    eb('subject_type', '=', k.subject.type),
    eb('subject_id', '=', k.subject.id),
    eb('period', '=', k.period),
    eb('model_name', '=', k.modelName),
    eb('window_start', '=', k.windowStart),
  ]);
