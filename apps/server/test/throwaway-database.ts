import crypto from 'node:crypto';
import pg from 'pg';
import { TEST_DATABASE_URL } from './test-app.js';

export interface ThrowawayDatabase {
  name: string;
  /** TEST_DATABASE_URL with this database in place of its own. */
  url: string;
  drop(): Promise<void>;
}

async function withAdminClient<T>(run: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/**
 * A whole PostgreSQL database of its own (`test_cluster_<random>`) on the test server, for
 * tests whose server processes cannot be pointed at a schema, or that need the database
 * as a first start finds it: empty.
 */
export async function createThrowawayDatabase(): Promise<ThrowawayDatabase> {
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const name = `test_cluster_${crypto.randomBytes(6).toString('hex')}`;
  await withAdminClient((c) => c.query(`create database "${name}"`));
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    // `with (force)` ends connections a killed process may have left behind.
    drop: () => withAdminClient((c) => c.query(`drop database if exists "${name}" with (force)`)).then(() => undefined),
  };
}
