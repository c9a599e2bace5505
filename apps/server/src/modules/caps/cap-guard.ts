import { CAP_PERIODS, type CapPeriod, type CapReachedData } from '@aiplatform/contracts';
import type { Kysely } from 'kysely';
import type { Database, Db } from '../../db/types.js';
import { AppError } from '../../lib/http/errors.js';
import { dayIn } from '../stats/stats-calendar.js';
import { type CapCrossing, fireCapAlerts } from './cap-alerts.js';
import { nextWindowStart, resetsAt, windowStart } from './cap-windows.js';
import { type CapRow, type CapSubject, CapsRepo, type CounterKey } from './caps.repo.js';

/** One charge as the caps see it. */
export interface CapCharge {
  userId: number;
  /** The user's group when the turn began; null for none. */
  groupId: number | null;
  modelName: string;
  /** Credits reserved; a free turn (0) is never refused. */
  cost: number;
  /** ISO instant of the reservation. */
  now: string;
  /** The statistics time zone, which the windows follow. */
  timeZone: string;
}

/** A turn refused by a cap: answered 429 CAP_REACHED; after the rollback, `recordCapReached` fires its alerts. */
export class CapReached extends AppError {
  constructor(
    readonly info: CapReachedData,
    readonly key: CounterKey,
  ) {
    const model = info.model_name ? ` (${info.model_name})` : '';
    super(
      'CAP_REACHED',
      {
        scope: `server.caps.scope.${info.source}`,
        period: `server.caps.period.${info.period}`,
        model,
        limit: info.limit,
        used: info.used,
        resets_at: info.resets_at,
      },
      { ...info },
    );
  }
}

interface Limit {
  key: CounterKey;
  limit: number;
  source: CapReachedData['source'];
}

/**
 * The limits a charge must stay within, one per counter: a user's own cap and their
 * administrator's on the same period and model share a counter, and the lower one counts.
 * Sorted (user before group, day before week before month, all models before one), so
 * concurrent turns lock counters in one order and cannot deadlock.
 */
function limitsOf(caps: readonly CapRow[], day: string): Limit[] {
  const byKey = new Map<string, Limit>();
  for (const c of caps) {
    const subject: CapSubject = { type: c.subject_type, id: c.subject_id };
    const id = `${c.subject_type}/${c.period}/${c.model_name}`;
    const source = c.subject_type === 'group' ? 'group' : c.personal ? 'personal' : 'user';
    const known = byKey.get(id);
    if (known && known.limit <= c.credits) continue;
    byKey.set(id, {
      key: {
        subject,
        period: c.period,
        modelName: c.model_name,
        windowStart: windowStart(c.period, day),
        windowEnd: nextWindowStart(c.period, day),
      },
      limit: c.credits,
      source,
    });
  }
  const rank = (l: Limit) =>
    [l.key.subject.type === 'user' ? 0 : 1, CAP_PERIODS.indexOf(l.key.period), l.key.modelName].join('/');
  return [...byKey.values()].sort((a, b) => (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0));
}

/**
 * Counts a charge against every cap that applies to it, inside the caller's reservation
 * transaction (after the balance was taken, before anything else is written): each
 * counter moves by one conditional update `used + cost <= limit`, so no number of
 * concurrent turns, on any number of instances, passes a cap. Throws CapReached (the
 * caller's transaction then rolls back, the balance with it). Alerts whose threshold the
 * charge reaches are recorded in the same transaction and delivered after it commits.
 */
export async function reserveWithinCaps(trx: Db, c: CapCharge): Promise<void> {
  if (c.cost <= 0) return;
  const repo = new CapsRepo(trx);
  const caps = await repo.applicable(trx, c.userId, c.groupId, c.modelName);
  if (caps.length === 0) return;
  const day = dayIn(c.now, c.timeZone);
  const crossings: CapCrossing[] = [];
  for (const l of limitsOf(caps, day)) {
    let used = await repo.addWithin(trx, l.key, c.cost, l.limit);
    let before = used === undefined ? await repo.used(trx, l.key) : undefined;
    if (used === undefined && before === undefined) {
      // The window's first capped charge: its counter starts from the statistics.
      await repo.seedCounter(trx, l.key);
      used = await repo.addWithin(trx, l.key, c.cost, l.limit);
      if (used === undefined) before = await repo.used(trx, l.key);
    }
    if (used === undefined) {
      throw new CapReached(
        {
          period: l.key.period,
          limit: l.limit,
          used: before ?? 0,
          resets_at: resetsAt(l.key.period, day, c.timeZone),
          source: l.source,
          model_name: l.key.modelName || null,
        },
        l.key,
      );
    }
    crossings.push({ key: l.key, limit: l.limit, used, resetsAt: resetsAt(l.key.period, day, c.timeZone) });
  }
  await fireCapAlerts(trx, crossings, c.now, false);
}

/**
 * A refund of a capped charge: gives its cost back to the counters of the windows the
 * charge was counted in (those of `day`, the day the turn began), in the refund's own
 * transaction, as the balance is given back.
 */
export async function releaseCaps(
  trx: Db,
  r: { userId: number; groupId: number | null; modelName: string; cost: number; day: string },
): Promise<void> {
  if (r.cost <= 0) return;
  const repo = new CapsRepo(trx);
  const windows = CAP_PERIODS.map((period: CapPeriod) => ({ period, windowStart: windowStart(period, r.day) }));
  await repo.release(trx, { type: 'user', id: r.userId }, windows, r.modelName, r.cost);
  if (r.groupId !== null) await repo.release(trx, { type: 'group', id: r.groupId }, windows, r.modelName, r.cost);
}

/**
 * After a refusal has rolled back: the cap is reached, so every threshold of its
 * subject fires (once per window, as always). Own transaction; never throws.
 */
export async function recordCapReached(db: Kysely<Database>, err: CapReached, now: string): Promise<void> {
  try {
    await db.transaction().execute(async (trx) => {
      const crossing = { key: err.key, limit: err.info.limit, used: err.info.used, resetsAt: err.info.resets_at };
      await fireCapAlerts(trx, [crossing], now, true);
    });
  } catch {
    // An alert is worth less than the refusal it follows; the next refusal tries again.
  }
}
