import type { Generated, Selectable } from 'kysely';

/** A legal hold on a user or a whole group: while the row exists their conversations are never deleted. */
export interface LegalHoldsTable {
  id: Generated<number>;
  subject_type: 'user' | 'group';
  subject_id: number;
  reason: string;
  placed_by: number | null;
  placed_at: string;
}

/** One retention run: by the daily job (`started_by` null) or an administrator, dry or not. */
export interface RetentionRunsTable {
  id: Generated<number>;
  started_at: string;
  finished_at: string | null;
  dry_run: number;
  status: 'running' | 'done' | 'failed';
  conversations: Generated<number>;
  files: Generated<number>;
  started_by: number | null;
}

/** A cluster-wide lock as a lease row: held by `owner` until `locked_until`. */
export interface JobLocksTable {
  name: string;
  owner: string;
  locked_until: string;
}

/** The governance tables (retention, legal hold), as `Database` in types.ts gathers them. */
export interface GovTables {
  legal_holds: LegalHoldsTable;
  retention_runs: RetentionRunsTable;
  job_locks: JobLocksTable;
}

export type LegalHoldRow = Selectable<LegalHoldsTable>;
export type RetentionRunRow = Selectable<RetentionRunsTable>;
