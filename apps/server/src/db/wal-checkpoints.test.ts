import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eventually } from '../../test/chat-helpers.js';
import { openDatabase } from './database.js';
import { CHECKPOINT_EVERY_MS, scheduleWalCheckpoints } from './wal-checkpoints.js';

describe('WAL checkpoints', () => {
  afterEach(() => vi.useRealTimers());

  it('are left to the timer: commits do not copy the log into the database file, the timer does', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wal-'));
    const handle = openDatabase({ dataDir: dir });
    const file = path.join(dir, 'app.db');
    try {
      await sql`create table blobs (b blob)`.execute(handle.db);
      // About 1,500 pages in as many commits: past SQLite's own threshold of 1,000.
      for (let i = 0; i < 1500; i++) await sql`insert into blobs values (randomblob(4000))`.execute(handle.db);
      expect(fs.statSync(file).size).toBeLessThan(1_000_000);
      const size = await eventually(async () => {
        const s = fs.statSync(file).size;
        return s > 6_000_000 ? s : undefined;
      }, 5_000);
      expect(size).toBeGreaterThan(6_000_000);
    } finally {
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('skip a tick while the connection is inside a transaction, and stop when asked', () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    const sqlite = { inTransaction: false, pragma: (p: string) => calls.push(p) };
    const stop = scheduleWalCheckpoints(sqlite);
    expect(calls).toEqual(['wal_autocheckpoint = 10000']);
    vi.advanceTimersByTime(CHECKPOINT_EVERY_MS);
    expect(calls.slice(1)).toEqual(['wal_checkpoint(PASSIVE)']);
    sqlite.inTransaction = true;
    vi.advanceTimersByTime(CHECKPOINT_EVERY_MS);
    expect(calls).toHaveLength(2);
    sqlite.inTransaction = false;
    stop();
    vi.advanceTimersByTime(CHECKPOINT_EVERY_MS * 3);
    expect(calls).toHaveLength(2);
  });
});
