import { type Kysely, type ExpressionBuilder, sql } from 'kysely';
import type { Database, Db } from '../../db/types.js';
import type { RetentionRunRow } from '../../db/governance-tables.js';

/** Which conversations have expired: untouched since a cutoff, per group where a group sets its own days. */
export interface RetentionCutoffs {
  /** The site's cutoff (ISO time) for users whose group sets none; null: kept forever. */
  site: string | null;
  /** Groups with their own days, each with its cutoff (null never occurs: those groups are listed). */
  groups: { groupId: number; cutoff: string }[];
}

type Eb = ExpressionBuilder<Database & { c: Database['conversations']; u: Database['users'] }, 'c' | 'u'>;

/** Expired: unpinned and untouched since its owner's cutoff. */
function expired(eb: Eb, cutoffs: RetentionCutoffs) {
  const overridden = cutoffs.groups.map((g) => g.groupId);
  const rules = cutoffs.groups.map((g) =>
    eb.and([eb('u.group_id', '=', g.groupId), eb('c.updated_at', '<', g.cutoff)]),
  );
  if (cutoffs.site !== null) {
    const siteUsers =
      overridden.length > 0
        ? eb.or([eb('u.group_id', 'is', null), eb('u.group_id', 'not in', overridden)])
        : eb.lit(true);
    rules.push(eb.and([siteUsers, eb('c.updated_at', '<', cutoffs.site)]));
  }
  if (rules.length === 0) return eb.lit(false);
  return eb.and([eb('c.is_pinned', '=', 0), eb.or(rules)]);
}

/** The owner is under legal hold, themselves or through their group. */
function held(eb: Eb) {
  return eb.exists(
    eb
      .selectFrom('legal_holds as h')
      .select('h.id')
      .where((h) =>
        h.or([
          h.and([h('h.subject_type', '=', 'user'), h('h.subject_id', '=', h.ref('c.user_id'))]),
          h.and([h('h.subject_type', '=', 'group'), h('h.subject_id', '=', h.ref('u.group_id'))]),
        ]),
      ),
  );
}

/** Retention: the conversations it deletes, their deletion in batches, and the record of runs. */
export class RetentionRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Groups with their own retention. */
  groupDays(): Promise<{ id: number; retention_days: number | null }[]> {
    return this.db
      .selectFrom('user_groups')
      .select(['id', 'retention_days'])
      .where('retention_days', 'is not', null)
      .execute();
  }

  /** A user's group's own days (null: none set, or no group). */
  async groupDaysOf(userId: number): Promise<number | null> {
    const r = await this.db
      .selectFrom('users')
      .leftJoin('user_groups as g', 'g.id', 'users.group_id')
      .select('g.retention_days')
      .where('users.id', '=', userId)
      .executeTakeFirst();
    return r?.retention_days ?? null;
  }

  /**
   * The next `limit` conversations to delete after id `afterId`, by id (so a dry run, which
   * deletes nothing, still moves on): expired ones, and ones their owner deleted under a hold
   * since released; never any of a held owner.
   */
  candidates(db: Db, cutoffs: RetentionCutoffs, afterId: string, limit: number): Promise<{ id: string }[]> {
    return db
      .selectFrom('conversations as c')
      .innerJoin('users as u', 'u.id', 'c.user_id')
      .select('c.id')
      .where('c.id', '>', afterId)
      .where((eb) => eb.or([eb('c.hidden_at', 'is not', null), expired(eb, cutoffs)]))
      .where((eb) => eb.not(held(eb)))
      .orderBy('c.id')
      .limit(limit)
      .execute();
  }

  /** The files the messages of these conversations list. */
  async fileIdsOf(db: Db, conversationIds: readonly string[]): Promise<string[]> {
    if (conversationIds.length === 0) return [];
    const rows = await db
      .selectFrom('message_files')
      .innerJoin('messages', 'messages.id', 'message_files.message_id')
      .select('message_files.file_id')
      .distinct()
      .where('messages.conversation_id', 'in', conversationIds)
      .execute();
    return rows.map((r) => r.file_id);
  }

  /** Deletes the conversations (messages, drafts and links go with them through their foreign keys). */
  async deleteConversations(db: Db, ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const r = await db.deleteFrom('conversations').where('id', 'in', ids).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  async startRun(dryRun: boolean, startedBy: number | null, now: string): Promise<number> {
    const r = await this.db
      .insertInto('retention_runs')
      .values({ started_at: now, dry_run: dryRun ? 1 : 0, status: 'running', started_by: startedBy })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  }

  async finishRun(
    id: number,
    status: 'done' | 'failed',
    counts: { conversations: number; files: number },
    now: string,
  ) {
    await this.db
      .updateTable('retention_runs')
      .set({ status, finished_at: now, conversations: counts.conversations, files: counts.files })
      .where('id', '=', id)
      .execute();
  }

  /** When the daily job last ran for real (finished or not). */
  async lastJobStart(): Promise<string | null> {
    const r = await this.db
      .selectFrom('retention_runs')
      .select((eb) => eb.fn.max('started_at').as('at'))
      .where('started_by', 'is', null)
      .where('dry_run', '=', 0)
      .executeTakeFirst();
    return (r?.at as string | null | undefined) ?? null;
  }

  /** The latest runs, newest first, with who started them. */
  latestRuns(limit: number): Promise<(RetentionRunRow & { started_by_name: string | null })[]> {
    return this.db
      .selectFrom('retention_runs as r')
      .leftJoin('users as u', 'u.id', 'r.started_by')
      .selectAll('r')
      .select(sql<string | null>`u.username`.as('started_by_name'))
      .orderBy('r.id', 'desc')
      .limit(limit)
      .execute();
  }
}
