import type { Insertable } from 'kysely';
import type { AlertDeliveriesTable, Db, NotificationsTable } from '../../db/types.js';
import type { CapSubject, CounterKey } from './caps.repo.js';

/** A subject's alert settings as stored. */
export interface SubjectAlerts {
  subject: CapSubject;
  alerts: string;
  webhook_url: string | null;
}

/** The SQL of budget alerts: who is told, and the rows that make each alert fire once. */
export const capAlertsRepo = {
  async subjects(db: Db, subjects: readonly CapSubject[]): Promise<SubjectAlerts[]> {
    if (subjects.length === 0) return [];
    const rows = await db
      .selectFrom('usage_cap_subjects')
      .select(['subject_type', 'subject_id', 'alerts', 'webhook_url'])
      .where((eb) => eb.or(subjects.map((s) => eb.and([eb('subject_type', '=', s.type), eb('subject_id', '=', s.id)]))))
      .execute();
    return rows.map((r) => ({
      subject: { type: r.subject_type, id: r.subject_id },
      alerts: r.alerts,
      webhook_url: r.webhook_url,
    }));
  },

  /** Records that a threshold fired in a window: true for exactly one caller, however many race. */
  async claim(db: Db, key: CounterKey, percent: number, now: string): Promise<boolean> {
    const r = await db
      .insertInto('usage_cap_alerts')
      .values({
        subject_type: key.subject.type,
        subject_id: key.subject.id,
        period: key.period,
        model_name: key.modelName,
        window_start: key.windowStart,
        percent,
        created_at: now,
      })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
  },

  /**
   * Who hears of a subject's alerts in the bell and by mail: the user themselves, or a
   * group's active administrators; and the subject's name for the text.
   */
  async audience(db: Db, subject: CapSubject): Promise<{ name: string; people: { id: number; email: string }[] }> {
    if (subject.type === 'user') {
      const u = await db
        .selectFrom('users')
        .select(['id', 'email', 'username'])
        .where('id', '=', subject.id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return { name: u?.username ?? '', people: u ? [{ id: u.id, email: u.email }] : [] };
    }
    const group = await db.selectFrom('user_groups').select('name').where('id', '=', subject.id).executeTakeFirst();
    const people = await db
      .selectFrom('users')
      .select(['id', 'email'])
      .where('group_id', '=', subject.id)
      .where('role', '=', 'admin')
      .where('status', '=', 'active')
      .where('deleted_at', 'is', null)
      .execute();
    return { name: group?.name ?? '', people };
  },

  async notify(db: Db, rows: Insertable<NotificationsTable>[]): Promise<void> {
    if (rows.length > 0) await db.insertInto('notifications').values(rows).execute();
  },

  async enqueue(db: Db, rows: Insertable<AlertDeliveriesTable>[]): Promise<void> {
    if (rows.length > 0) await db.insertInto('alert_deliveries').values(rows).execute();
  },
};
