import type { CreateTableBuilder, Kysely } from 'kysely';

/**
 * Daily usage rollups (statistics read these, never the messages), filled from the
 * chat history already stored.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const counters = (t: CreateTableBuilder<string, string>): CreateTableBuilder<string, string> =>
    t
      .addColumn('messages', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('tokens', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('credits', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('conversations', 'integer', (c) => c.notNull().defaultTo(0));

  await counters(
    db.schema
      .createTable('usage_daily')
      .ifNotExists()
      .addColumn('day', 'varchar(10)', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('model_name', 'varchar(200)', (c) => c.notNull())
      .addColumn('group_id', 'integer', (c) => c.notNull().defaultTo(0)),
  )
    .addPrimaryKeyConstraint('usage_daily_pk', ['day', 'user_id', 'model_name', 'group_id'])
    .execute();
  // A user's own statistics, and a group's.
  await db.schema
    .createIndex('usage_daily_user_day_idx')
    .ifNotExists()
    .on('usage_daily')
    .columns(['user_id', 'day'])
    .execute();
  await db.schema
    .createIndex('usage_daily_group_day_idx')
    .ifNotExists()
    .on('usage_daily')
    .columns(['group_id', 'day', 'user_id'])
    .execute();
  // The platform overview (active users per day, usage per user) over a range of days:
  // read from this index alone, never from the table rows.
  await db.schema
    .createIndex('usage_daily_day_counts_idx')
    .ifNotExists()
    .on('usage_daily')
    .columns(['day', 'user_id', 'group_id', 'messages', 'tokens', 'credits', 'conversations'])
    .execute();

  await counters(
    db.schema
      .createTable('usage_daily_totals')
      .ifNotExists()
      .addColumn('day', 'varchar(10)', (c) => c.notNull())
      .addColumn('group_id', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('model_name', 'varchar(200)', (c) => c.notNull()),
  )
    .addPrimaryKeyConstraint('usage_daily_totals_pk', ['day', 'group_id', 'model_name'])
    .execute();

  await backfillUsageRollups(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('usage_daily_totals').ifExists().execute();
  await db.schema.dropTable('usage_daily').ifExists().execute();
}

/** The tables the back-fill reads and writes, as they stood at this migration. */
interface Tables {
  messages: {
    seq: number;
    conversation_id: string;
    role: string;
    model_name: string | null;
    tokens: number;
    created_at: string;
    id: string;
  };
  conversations: { id: string; user_id: number; model_name: string };
  users: { id: number; group_id: number | null };
  credit_transactions: { reference_id: string | null; transaction_type: string; amount: number };
  usage_daily: Counters & { day: string; user_id: number; model_name: string; group_id: number };
  usage_daily_totals: Counters & { day: string; group_id: number; model_name: string };
}
type Counters = { messages: number; tokens: number; credits: number; conversations: number };

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** `YYYY-MM-DD` of an instant as seen in a time zone. */
function dayIn(instant: string, timeZone: string): string {
  let f = dayFormats.get(timeZone);
  if (!f) {
    // en-CA writes dates as YYYY-MM-DD.
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, f);
  }
  return f.format(new Date(instant));
}

const BATCH = 5000;
const INSERT_CHUNK = 500;

type Row = { day: string; userId: number; groupId: number; model: string };
type Sums = { messages: number; tokens: number; credits: number; conversations: number };

/**
 * Fills the usage rollups from the chat history already stored (run once, by this
 * migration; kept here as it was written, so later changes elsewhere cannot change it). Each answer stands for one turn: two messages, its
 * tokens, and the credits its `chat_consume` row took. A conversation counts once, on
 * the day of its first answer. Turns that were refunded have no answer left and
 * so count nothing, exactly as they would have live. Days are cut in the server's zone
 * (no statistics zone can have been chosen before this table existed).
 */
export async function backfillUsageRollups(
  anyDb: Kysely<unknown>,
  timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
): Promise<number> {
  const db = anyDb as Kysely<Tables>;
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
  const write = async (trx: Kysely<Tables>) => {
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
