import path from 'node:path';
import { SQLite as Database, type SqliteDatabase } from '../../apps/server/src/db/sqlite-driver.js';

/**
 * System settings are rows of `system_settings` (key = section, value = JSON). Specs that
 * need a different setting write the server's SQLite file directly. The server keeps a
 * cached copy for at most a second (a change made through the admin API applies at
 * once; one written behind its back only when that copy expires), so every write
 * waits that long before the spec goes on.
 */
const SERVER_CACHE_MS = 1000;

function waitForServerCache(): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, SERVER_CACHE_MS + 200);
}

function open(): SqliteDatabase {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set');
  const db = new Database(path.join(dir, 'app.db'));
  db.pragma('busy_timeout = 5000');
  return db;
}

export type Section = Record<string, unknown>;

export function readSection(key: string): Section | null {
  const db = open();
  try {
    const row = db.prepare('SELECT value FROM system_settings WHERE key = ?').get(key) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as Section) : null;
  } finally {
    db.close();
  }
}

export function writeSection(key: string, value: Section | null): void {
  const db = open();
  try {
    if (value === null) db.prepare('DELETE FROM system_settings WHERE key = ?').run(key);
    else
      db.prepare(
        'INSERT INTO system_settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
      ).run(key, JSON.stringify(value), new Date().toISOString());
  } finally {
    db.close();
  }
  waitForServerCache();
}

/** Merges `patch` into a section and returns a function that puts the old row back. */
export function patchSection(key: string, patch: Section): () => void {
  const before = readSection(key);
  writeSection(key, { ...(before ?? {}), ...patch });
  return () => writeSection(key, before);
}
