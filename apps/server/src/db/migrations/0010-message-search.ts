import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { indexTextOf } from '../../modules/chat/message-search.repo.js';

/** Messages indexed per round of the fill, so a large history never sits in memory at once. */
const FILL_BATCH = 500;

/**
 * Full-text search over message text. The index text is made in TypeScript
 * (modules/chat/search-text.ts: every CJK character a token of its own), so both databases
 * index the same tokens and the filling below cannot be plain SQL.
 *
 * SQLite: an FTS5 table, contentless (the text already lives in `messages`) with
 * `contentless_delete=1` (SQLite ≥ 3.43) so an entry can be removed by rowid alone; the rowid
 * is `messages.seq`. The `ascii` tokenizer splits only on ASCII spaces and punctuation: the
 * text arrives already split and lower-cased, and unicode61 would split again on marks.
 * `owner` holds `u<user id>` as an indexed token so a search matches only the caller's
 * entries. A trigger removes the entry of a deleted message (conversation cascades included).
 *
 * PostgreSQL: a side table rather than a column on `messages`, so reading messages never
 * drags the tsvector along; it carries the owner for the same reason as above and goes with
 * its message through the foreign key's cascade. Config 'simple' (lower-case, no stemming,
 * no stop words), GIN-indexed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`
      create table message_search (
        seq integer primary key references messages(seq) on delete cascade,
        user_id integer not null,
        tsv tsvector not null
      )`.execute(db);
    await sql`create index message_search_tsv_idx on message_search using gin (tsv)`.execute(db);
    await sql`create index message_search_user_idx on message_search (user_id, seq)`.execute(db);
  } else {
    await sql`
      create virtual table message_search using fts5(
        owner, body, content='', contentless_delete=1, tokenize='ascii'
      )`.execute(db);
    await sql`
      create trigger messages_search_delete after delete on messages
      begin delete from message_search where rowid = old.seq; end`.execute(db);
  }
  await fillMessageSearch(db);
}

/** Indexes every message that has text, in batches by `seq`. */
export async function fillMessageSearch(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  let after = 0;
  for (;;) {
    const { rows } = await sql<{ seq: number; user_id: number; content: string }>`
      select m.seq, c.user_id, m.content
      from messages m join conversations c on c.id = m.conversation_id
      where m.seq > ${after} and m.content != ''
      order by m.seq
      limit ${FILL_BATCH}
    `.execute(db);
    if (rows.length === 0) return;
    for (const row of rows) {
      const body = indexTextOf(row.content);
      if (!body) continue;
      await (
        postgres
          ? sql`insert into message_search (seq, user_id, tsv) values (${row.seq}, ${row.user_id}, to_tsvector('simple', ${body}))
              on conflict (seq) do nothing`
          : sql`insert into message_search (rowid, owner, body) values (${row.seq}, ${`u${row.user_id}`}, ${body})`
      ).execute(db);
    }
    after = Number((rows.at(-1) as { seq: number }).seq);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    await sql`drop trigger if exists messages_search_delete`.execute(db);
  }
  await sql`drop table if exists message_search`.execute(db);
}
