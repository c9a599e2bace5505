import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SQLite } from './sqlite-driver.js';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest, migrations } from './migrate.js';
import type { Database } from './types.js';

/** How PostgreSQL fails a listing during which another client drops a schema. */
const SCHEMA_GONE = { message: 'schema "t_gone" does not exist', code: '3F000' };
/** …and when the drop lands between reading a table's name and reading its columns. */
const COLUMN_GONE = { message: 'column "id" of relation "conversations" does not exist', code: '42703' };

/**
 * An in-memory database whose first `times` table listings (Kysely's introspection, which
 * looks for its bookkeeping tables) fail with `failure`.
 */
function databaseWhereASchemaVanishes(times: number, failure: { message: string; code: string } = SCHEMA_GONE) {
  const sqlite = new SQLite(':memory:');
  const state = { listings: 0 };
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = (source: string) => {
    if (source.includes('sqlite_master') && state.listings++ < times) {
      throw Object.assign(new Error(failure.message), { code: failure.code });
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

  it('lists the tables again when a table vanished under the listing', async () => {
    const { db, state } = databaseWhereASchemaVanishes(1, COLUMN_GONE);
    await migrateToLatest(db, { appSecret: 'migration test secret' });
    expect(state.listings).toBeGreaterThan(1);
    expect(await db.selectFrom('users').select('id').execute()).toEqual([]);
    await db.destroy();
  });

  it('does not try again after another error', async () => {
    const { db, state } = databaseWhereASchemaVanishes(1, {
      message: 'permission denied for schema public',
      code: '42501',
    });
    await expect(migrateToLatest(db, { appSecret: 'migration test secret' })).rejects.toThrow('migration  failed');
    expect(state.listings).toBe(1);
    await db.destroy();
  });

  it('gives up when the listing keeps failing', async () => {
    const { db } = databaseWhereASchemaVanishes(Number.POSITIVE_INFINITY);
    await expect(migrateToLatest(db, { appSecret: 'migration test secret' })).rejects.toThrow('migration  failed');
    await db.destroy();
  });
});

describe('migrations', () => {
  // Tests rebuild an older database by undoing the later migrations; Kysely skips one without
  // `down` but leaves it recorded, and the next start then refuses the database as corrupted.
  it('can each be undone', () => {
    for (const [name, migration] of Object.entries(migrations({ appSecret: 'unused' }))) {
      expect(typeof migration.down, name).toBe('function');
    }
  });

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
