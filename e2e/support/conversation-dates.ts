import path from 'node:path';
import { SQLite as Database } from '../../apps/server/src/db/sqlite-driver.js';

/**
 * Moves a conversation's last activity into the past, for the sidebar's date groups. The
 * API stamps every change with the present, so the spec writes the server's SQLite file
 * (as support/settings.ts does); the conversation list is read from the database on every
 * request, so the next page load shows the change.
 */
export function setLastActivity(conversationId: string, at: Date): void {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set');
  const db = new Database(path.join(dir, 'app.db'));
  try {
    db.pragma('busy_timeout = 5000');
    const iso = at.toISOString();
    const changed = db
      .prepare('UPDATE conversations SET last_message_at = ?, updated_at = ?, created_at = ? WHERE id = ?')
      .run(iso, iso, iso, conversationId).changes;
    if (changed !== 1) throw new Error(`conversation ${conversationId} not found`);
  } finally {
    db.close();
  }
}

/** Local noon `days` days before today: clear of midnight whatever the time of the run. */
export function daysAgo(days: number): Date {
  const now = new Date();
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() - days, 12);
}
