import type { Kysely } from 'kysely';
import type { Database, Db } from '../../db/types.js';
import type { LegalHoldRow } from '../../db/governance-tables.js';

export type HoldSubject = 'user' | 'group';

/**
 * Whether a user is under legal hold: held themselves or through their group. Every path
 * that deletes a person's content asks this first (in the deleting transaction where it has one).
 */
export async function isUserHeld(db: Db, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('legal_holds')
    .select('id')
    .where((eb) =>
      eb.or([
        eb.and([eb('subject_type', '=', 'user'), eb('subject_id', '=', userId)]),
        eb.and([
          eb('subject_type', '=', 'group'),
          eb('subject_id', 'in', eb.selectFrom('users').select('group_id').where('id', '=', userId)),
        ]),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Of `userIds`, those under legal hold (themselves or through their group). */
export async function heldUserIds(db: Db, userIds: readonly number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('users')
    .select('users.id')
    .where('users.id', 'in', userIds)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('legal_holds')
          .select('legal_holds.id')
          .where((h) =>
            h.or([
              h.and([h('legal_holds.subject_type', '=', 'user'), h('legal_holds.subject_id', '=', h.ref('users.id'))]),
              h.and([
                h('legal_holds.subject_type', '=', 'group'),
                h('legal_holds.subject_id', '=', h.ref('users.group_id')),
              ]),
            ]),
          ),
      ),
    )
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Legal holds: one row per held user or group; releasing deletes it (the audit log keeps the history). */
export class LegalHoldsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  find(db: Db, subject: HoldSubject, subjectId: number): Promise<LegalHoldRow | undefined> {
    return db
      .selectFrom('legal_holds')
      .selectAll()
      .where('subject_type', '=', subject)
      .where('subject_id', '=', subjectId)
      .executeTakeFirst();
  }

  /** Whether the user or group exists (a hold on nobody is not found). */
  async subjectExists(db: Db, subject: HoldSubject, id: number): Promise<boolean> {
    const table = subject === 'user' ? 'users' : 'user_groups';
    return (await db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  /** Places the hold, or replaces the reason of one already placed. */
  async place(db: Db, subject: HoldSubject, subjectId: number, reason: string, by: number, now: string) {
    await db
      .insertInto('legal_holds')
      .values({ subject_type: subject, subject_id: subjectId, reason, placed_by: by, placed_at: now })
      .onConflict((oc) => oc.columns(['subject_type', 'subject_id']).doUpdateSet({ reason }))
      .execute();
  }

  /** Releases the hold; false when there was none. */
  async release(db: Db, subject: HoldSubject, subjectId: number): Promise<boolean> {
    const r = await db
      .deleteFrom('legal_holds')
      .where('subject_type', '=', subject)
      .where('subject_id', '=', subjectId)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** Every hold with its subject's name, newest first. */
  list() {
    return this.db
      .selectFrom('legal_holds as h')
      .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'h.subject_id').on('h.subject_type', '=', 'user'))
      .leftJoin('user_groups as g', (j) => j.onRef('g.id', '=', 'h.subject_id').on('h.subject_type', '=', 'group'))
      .leftJoin('users as p', 'p.id', 'h.placed_by')
      .select([
        'h.id',
        'h.subject_type',
        'h.subject_id',
        'h.reason',
        'h.placed_at',
        'h.placed_by',
        'u.username as user_name',
        'g.name as group_name',
        'p.username as placed_by_name',
      ])
      .orderBy('h.placed_at', 'desc')
      .orderBy('h.id', 'desc')
      .execute();
  }
}
