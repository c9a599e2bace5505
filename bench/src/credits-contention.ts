import http from 'node:http';
import { type BenchUser, createConversation, inBatches, isMessageEvent, postStream } from './api.js';
import { type Sqlite, ledgerCheck, setBalance } from './db.js';
import { type Row, verdict } from './stats.js';

export interface ContentionOptions {
  apiUrl: string;
  db: Sqlite;
  user: BenchUser;
  sends: number;
  /** How many sends the balance covers. */
  affordable: number;
  costPerChat: number;
}

/**
 * `sends` simultaneous sends by one user whose balance covers exactly `affordable` of
 * them, each on its own connection. Afterwards the SQLite file must show a zero balance
 * that equals the sum of the ledger.
 */
export async function measureCreditsContention(o: ContentionOptions): Promise<Row[]> {
  const conversations = await inBatches(Array.from({ length: 10 }), 10, () =>
    createConversation(o.apiUrl, o.user.token, { context_length: 0 }),
  );
  setBalance(o.db, o.user.id, o.affordable * o.costPerChat);
  const before = ledgerCheck(o.db, o.user.id);

  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const started = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: o.sends }, (_, i) =>
      postStream(`${o.apiUrl}/api/chat/conversations/${conversations[i % conversations.length]}/messages`, {
        agent,
        token: o.user.token,
        timeoutMs: 30_000,
        body: { content: `Contention ${i}`, stream: true, stream_options: { delta_only: true } },
        isFirst: isMessageEvent,
      }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();

  const succeeded = outcomes.filter((r) => r.status === 200 && r.events.includes('done')).length;
  const refused = outcomes.filter((r) => r.status === 402).length;
  const other = o.sends - succeeded - refused;
  const after = ledgerCheck(o.db, o.user.id);
  const charges = o.db
    .prepare(
      `select
         sum(case when transaction_type = 'chat_consume' then 1 else 0 end) as consumed,
         sum(case when transaction_type = 'system_refund' then 1 else 0 end) as refunded
       from credit_transactions where user_id = ?`,
    )
    .get(o.user.id) as { consumed: number; refunded: number };
  const ok = succeeded === o.affordable && other === 0 && after.consistent && before.consistent;
  return [
    {
      what: `credits contention: ${o.sends} simultaneous sends, balance for ${o.affordable}`,
      result:
        `${succeeded} succeeded (expected ${o.affordable}), ${refused} refused with 402, ${other} other; ` +
        `balance ${after.balance}, ledger sum ${after.ledgerSum} (${after.consistent ? 'consistent' : 'INCONSISTENT'}); ` +
        `${seconds.toFixed(2)} s`,
      budget: `exactly ${o.affordable} succeed, ledger consistent`,
      met: verdict(ok),
      data: {
        succeeded,
        refused,
        other,
        seconds,
        before,
        after,
        ...charges,
        firstOther: outcomes
          .filter((r) => !(r.status === 200 && r.events.includes('done')) && r.status !== 402)
          .slice(0, 3)
          .map((r) => `${r.status} ${r.error ?? r.body.slice(0, 200)} ${r.events.join(',')}`),
      },
    },
  ];
}
