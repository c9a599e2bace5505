import type SQLite from 'better-sqlite3';
import type { DatabaseLog } from './pg-pool.js';

/** How often the write-ahead log is copied back into the database file. */
export const CHECKPOINT_EVERY_MS = 1_000;
/**
 * WAL pages after which a commit checkpoints by itself (SQLite's default is 1,000): only
 * a backstop, for when the timer cannot keep up.
 */
export const CHECKPOINT_BACKSTOP_PAGES = 10_000;

/**
 * SQLite copies the write-ahead log into the database file (a checkpoint, with two
 * fsyncs) inside whichever commit crosses its threshold, so every few dozen sends one
 * request paid several milliseconds for it. Here a timer checkpoints instead, between
 * requests' transactions, and the commits' own checkpoint is only a distant backstop.
 * Returns the function that stops the timer.
 */
export function scheduleWalCheckpoints(
  sqlite: Pick<SQLite.Database, 'pragma' | 'inTransaction'>,
  log?: DatabaseLog,
): () => void {
  sqlite.pragma(`wal_autocheckpoint = ${CHECKPOINT_BACKSTOP_PAGES}`);
  const timer = setInterval(() => {
    // A transaction of this connection is open across an await: its commit comes first.
    if (sqlite.inTransaction) return;
    try {
      // PASSIVE: copies what it can without waiting for, or blocking, readers and writers.
      sqlite.pragma('wal_checkpoint(PASSIVE)');
    } catch (err) {
      log?.warn({ err }, 'WAL checkpoint failed');
    }
  }, CHECKPOINT_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
