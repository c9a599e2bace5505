import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SQLite } from './sqlite-driver.js';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from './migrate.js';
import type { Database } from './types.js';

/**
 * An in-memory database whose first `times` table listings (Kysely's introspection, which
 * looks for its bookkeeping tables) fail the way PostgreSQL fails when another client drops
 * a schema during the listing.
 */
function databaseWhereASchemaVanishes(times: number) {
  const sqlite = new SQLite(':memory:');
  const state = { listings: 0 };
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = (source: string) => {
    if (source.includes('sqlite_master') && state.listings++ < times) {
      throw Object.assign(new Error('schema "t_gone" does not exist'), { code: '3F000' });
    }
    return prepare(source);
  };
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, state };
}

describe('migrating while another client drops a schema', () => {
  it('lists the tables again and migrates', async () => {
    const { db, state } = databaseWhereASchemaVanishes(1);
    await migrateToLatest(db, { appSecret: 'migration test secret' });
    expect(state.listings).toBeGreaterThan(1);
    expect(await db.selectFrom('users').select('id').execute()).toEqual([]);
    await db.destroy();
  });

  it('gives up when the listing keeps failing', async () => {
    const { db } = databaseWhereASchemaVanishes(Number.POSITIVE_INFINITY);
    await expect(migrateToLatest(db, { appSecret: 'migration test secret' })).rejects.toThrow('migration  failed');
    await db.destroy();
  });
});

describe('migrations', () => {
  it('import nothing but kysely, Node and each other, so live code cannot change what they did', () => {
    const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const source = fs.readFileSync(path.join(dir, file), 'utf8');
      for (const [, from] of source.matchAll(/\bfrom\s+'([^']+)'/g)) {
        const allowed = from === 'kysely' || from!.startsWith('node:') || /^\.\/[^/]+$/.test(from!);
        expect(allowed, `${file} imports ${from}`).toBe(true);
      }
    }
  });
});
