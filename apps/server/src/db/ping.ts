import { type Kysely, sql } from 'kysely';
import type { Database } from './types.js';

/** Whether the database answers a trivial query (readiness); never throws. */
export function databaseAnswers(db: Kysely<Database>): Promise<boolean> {
  return sql`select 1`.execute(db).then(
    () => true,
    () => false,
  );
}
