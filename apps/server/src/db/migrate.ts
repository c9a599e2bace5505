import { type Kysely, type Migration, Migrator } from 'kysely';
import * as m0001 from './migrations/0001-initial.js';
import * as m0002 from './migrations/0002-modules.js';
import type { Database } from './types.js';

/** Migrations are listed here (not read from disk) so they work from any working directory. */
const MIGRATIONS: Record<string, Migration> = {
  '0001-initial': m0001,
  '0002-modules': m0002,
};

export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(MIGRATIONS) },
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed`, { cause: error });
  }
}
