import type { Kysely, Selectable } from 'kysely';
import type { AlertDeliveriesTable, Database } from '../../db/types.js';

export type AlertDelivery = Selectable<AlertDeliveriesTable>;

/** The SQL of the alert delivery queue: claiming due rows under a lease, and each try's record. */
export class AlertDeliveriesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Takes up to `limit` due deliveries for this instance until `leaseUntil`: each by a
   * conditional update (still pending, not leased by a live instance), so two instances
   * never send the same one at once; one whose sender died is taken again when its lease ends.
   */
  async claimDue(now: string, leaseUntil: string, limit: number): Promise<AlertDelivery[]> {
    const due = await this.db
      .selectFrom('alert_deliveries')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .orderBy('next_attempt_at')
      .limit(limit)
      .execute();
    const claimed: AlertDelivery[] = [];
    for (const { id } of due) {
      const row = await this.db
        .updateTable('alert_deliveries')
        .set({ lease_until: leaseUntil })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        .returningAll()
        .executeTakeFirst();
      if (row) claimed.push(row);
    }
    return claimed;
  }

  /** Records one try and what follows from it: delivered, another try at `next`, or given up. */
  async settle(
    d: AlertDelivery,
    attempt: { at: string; httpStatus: number | null; error: string | null; durationMs: number },
    outcome: { status: AlertDelivery['status']; next: string },
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('alert_delivery_attempts')
        .values({
          delivery_id: d.id,
          attempted_at: attempt.at,
          http_status: attempt.httpStatus,
          error: attempt.error === null ? null : attempt.error.slice(0, 500),
          duration_ms: attempt.durationMs,
        })
        .execute();
      await trx
        .updateTable('alert_deliveries')
        .set({
          status: outcome.status,
          attempts: d.attempts + 1,
          next_attempt_at: outcome.next,
          lease_until: null,
          delivered_at: outcome.status === 'delivered' ? attempt.at : null,
        })
        .where('id', '=', d.id)
        .execute();
    });
  }

  attempts(deliveryId: number) {
    return this.db
      .selectFrom('alert_delivery_attempts')
      .selectAll()
      .where('delivery_id', '=', deliveryId)
      .orderBy('id')
      .execute();
  }
}
