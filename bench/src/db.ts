import crypto from 'node:crypto';
import path from 'node:path';
import { SQLite as Database, type SqliteDatabase } from '../../apps/server/src/db/sqlite-driver.js';

/*
 * Direct access to the server's SQLite file (DATA_DIR/app.db) for setup that the API
 * cannot do quickly (exact balances, thousands of messages) and for checking the ledger.
 * The server keeps the file in WAL mode, so this second connection is safe while it runs.
 */

export type Sqlite = SqliteDatabase;

export function openAppDb(dataDir: string): Sqlite {
  const db = new Database(path.join(dataDir, 'app.db'));
  db.pragma('busy_timeout = 5000');
  return db;
}

export interface LedgerCheck {
  balance: number;
  ledgerSum: number;
  consistent: boolean;
}

/** Balance = credits_quota − credits_used, and the sum of the user's ledger rows. */
export function ledgerCheck(db: Sqlite, userId: number): LedgerCheck {
  const u = db.prepare('select credits_quota - credits_used as balance from users where id = ?').get(userId) as {
    balance: number;
  };
  const l = db
    .prepare('select coalesce(sum(amount), 0) as total from credit_transactions where user_id = ?')
    .get(userId) as { total: number };
  return { balance: u.balance, ledgerSum: l.total, consistent: u.balance === l.total };
}

/**
 * Gives the user exactly `balance` credits: moves credits_quota and writes the matching
 * admin_add / admin_deduct ledger row in the same transaction, so the ledger still sums
 * to the balance.
 */
export function setBalance(db: Sqlite, userId: number, balance: number): void {
  db.transaction(() => {
    const { current } = db
      .prepare('select credits_quota - credits_used as current from users where id = ?')
      .get(userId) as { current: number };
    const delta = balance - current;
    if (delta === 0) return;
    const now = new Date().toISOString();
    db.prepare('update users set credits_quota = credits_quota + ?, updated_at = ? where id = ?').run(
      delta,
      now,
      userId,
    );
    db.prepare(
      `insert into credit_transactions (user_id, transaction_type, amount, balance_after, description, created_at)
       values (?, ?, ?, ?, ?, ?)`,
    ).run(userId, delta > 0 ? 'admin_add' : 'admin_deduct', delta, balance, 'Benchmark setup', now);
  })();
}

/**
 * Appends `count` finished messages (question/answer pairs, oldest first) to a
 * conversation and updates its counters, as if they had been sent over time.
 * Returns the id of the last message.
 */
export function insertMessages(
  db: Sqlite,
  conversationId: string,
  count: number,
  opts: { model: string; question: (i: number) => string; answer: (i: number) => string },
): string {
  const insert = db.prepare(
    `insert into messages (id, conversation_id, role, content, file_id, parent_id, tokens, model_name, status, created_at)
     values (?, ?, ?, ?, null, ?, ?, ?, 'complete', ?)`,
  );
  const start = Date.now() - count * 60_000;
  let lastId = '';
  let tokens = 0;
  db.transaction(() => {
    let questionId = '';
    for (let i = 0; i < count; i++) {
      const id = crypto.randomUUID();
      const at = new Date(start + i * 60_000).toISOString();
      const user = i % 2 === 0;
      const content = user ? opts.question(i) : opts.answer(i);
      const t = Math.ceil(content.length / 4);
      tokens += t;
      insert.run(
        id,
        conversationId,
        user ? 'user' : 'assistant',
        content,
        user ? null : questionId,
        t,
        user ? null : opts.model,
        at,
      );
      if (user) questionId = id;
      lastId = id;
    }
    const now = new Date().toISOString();
    db.prepare(
      `update conversations set message_count = message_count + ?, total_tokens = total_tokens + ?,
       last_message_at = ?, updated_at = ? where id = ?`,
    ).run(count, tokens, now, now, conversationId);
  })();
  return lastId;
}
