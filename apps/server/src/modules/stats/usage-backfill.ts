import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { dayIn, serverTimeZone } from './stats-calendar.js';

const BATCH = 5000;
const INSERT_CHUNK = 500;

type Row = { day: string; userId: number; groupId: number; model: string };
type Sums = { messages: number; tokens: number; credits: number; conversations: number };

/**
 * Fills the usage rollups from the chat history already stored (run once, by the
 * migration that creates them). Each answer stands for one turn: two messages, its
 * tokens, and the credits its `chat_consume` row took. A conversation counts once, on
 * the day of its first answer. Turns that were refunded have no answer left and
 * so count nothing, exactly as they would have live. Days are cut in the server's zone
 * (no statistics zone can have been chosen before this table existed).
 */
export async function backfillUsageRollups(db: Kysely<Database>, timeZone = serverTimeZone()): Promise<number> {
  const daily = new Map<string, Row & Sums>();
  const seenConversations = new Set<string>();
  let after = 0;
  let answers = 0;
  for (;;) {
    const rows = await db
      .selectFrom('messages')
      .innerJoin('conversations', 'conversations.id', 'messages.conversation_id')
      .innerJoin('users', 'users.id', 'conversations.user_id')
      .leftJoin('credit_transactions', (j) =>
        j
          .onRef('credit_transactions.reference_id', '=', 'messages.id')
          .on('credit_transactions.transaction_type', '=', 'chat_consume'),
      )
      .select([
        'messages.seq',
        'messages.conversation_id',
        'messages.created_at',
        'messages.model_name',
        'messages.tokens',
        'conversations.user_id',
        'conversations.model_name as conversation_model',
        'users.group_id',
        'credit_transactions.amount',
      ])
      .where('messages.role', '=', 'assistant')
      .where('messages.seq', '>', after)
      .orderBy('messages.seq')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) break;
    for (const r of rows) {
      const key: Row = {
        day: dayIn(r.created_at, timeZone),
        userId: r.user_id,
        groupId: r.group_id ?? 0,
        model: r.model_name ?? r.conversation_model,
      };
      const id = `${key.day}\u0000${key.userId}\u0000${key.model}\u0000${key.groupId}`;
      const sums = daily.get(id) ?? { ...key, messages: 0, tokens: 0, credits: 0, conversations: 0 };
      sums.messages += 2;
      sums.tokens += Number(r.tokens);
      sums.credits += Math.abs(Number(r.amount ?? 0));
      if (!seenConversations.has(r.conversation_id)) {
        seenConversations.add(r.conversation_id);
        sums.conversations += 1;
      }
      daily.set(id, sums);
    }
    answers += rows.length;
    after = Number(rows[rows.length - 1]!.seq);
  }

  const totals = new Map<string, Omit<Row, 'userId'> & Sums>();
  for (const d of daily.values()) {
    const id = `${d.day}\u0000${d.groupId}\u0000${d.model}`;
    const t = totals.get(id) ?? {
      day: d.day,
      groupId: d.groupId,
      model: d.model,
      messages: 0,
      tokens: 0,
      credits: 0,
      conversations: 0,
    };
    t.messages += d.messages;
    t.tokens += d.tokens;
    t.credits += d.credits;
    t.conversations += d.conversations;
    totals.set(id, t);
  }

  const dailyRows = [...daily.values()].map((d) => ({
    day: d.day,
    user_id: d.userId,
    model_name: d.model,
    group_id: d.groupId,
    messages: d.messages,
    tokens: d.tokens,
    credits: d.credits,
    conversations: d.conversations,
  }));
  const totalRows = [...totals.values()].map((t) => ({
    day: t.day,
    group_id: t.groupId,
    model_name: t.model,
    messages: t.messages,
    tokens: t.tokens,
    credits: t.credits,
    conversations: t.conversations,
  }));
  const write = async (trx: Kysely<Database>) => {
    for (let i = 0; i < dailyRows.length; i += INSERT_CHUNK)
      await trx
        .insertInto('usage_daily')
        .values(dailyRows.slice(i, i + INSERT_CHUNK))
        .execute();
    for (let i = 0; i < totalRows.length; i += INSERT_CHUNK)
      await trx
        .insertInto('usage_daily_totals')
        .values(totalRows.slice(i, i + INSERT_CHUNK))
        .execute();
  };
  // The migrator may already hold a transaction (PostgreSQL); otherwise open one.
  if (db.isTransaction) await write(db);
  else await db.transaction().execute(write);
  return answers;
}
