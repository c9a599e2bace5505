import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Database, MessageRow, Db } from '../../db/types.js';
import { plainText } from './auto-title.js';
import { type SearchQuery, toFts5Match, toIndexText, toTsQuery } from './search-text.js';

/** A message found by a search, with what the result list shows of its conversation. */
export interface MessageHit {
  message_id: string;
  conversation_id: string;
  conversation_title: string;
  model_name: string;
  role: MessageRow['role'];
  content: string;
  created_at: string;
}

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * Index text kept per message, in characters: far beyond any question (100,000 characters),
 * and it keeps a PostgreSQL tsvector well under its 1 MB limit whatever an answer holds.
 */
const INDEX_TEXT_MAX = 200_000;

/** The text a message is found by: what the reader sees (markdown marks dropped), as search tokens. */
export function indexTextOf(content: string): string {
  const text = toIndexText(plainText(content));
  if (text.length <= INDEX_TEXT_MAX) return text;
  // Cut between tokens, never inside one.
  return text.slice(0, text.lastIndexOf(' ', INDEX_TEXT_MAX));
}

/**
 * The full-text index of message text (table `message_search`, migration 0010): one entry
 * per message with text, keyed by `messages.seq`, carrying its owner so a search reads only
 * the caller's entries. A chat turn's question and answer are indexed in the transaction
 * that settles the turn (answered or refunded), so a question in flight is not found yet;
 * removal needs no text, so the database does it (SQLite trigger, PostgreSQL
 * foreign-key cascade) for every way a message can go, conversation and account deletion included.
 */

/** Removes a message's entry (before it is written anew). */
function removeEntry(db: Db, messageId: string) {
  const seq = sql`(select seq from messages where id = ${messageId})`;
  return isPostgres(db)
    ? sql`delete from message_search where seq = ${seq}`.execute(db)
    : sql`delete from message_search where rowid = ${seq}`.execute(db);
}

/** (Re)indexes one message from its content; empty text removes its entry. `isNew`: nothing to replace. */
export async function indexMessage(db: Db, messageId: string, content: string, isNew = false): Promise<void> {
  const body = indexTextOf(content);
  // A contentless FTS5 table cannot be upserted, so an entry is replaced by delete and insert.
  if (!isNew) await removeEntry(db, messageId);
  if (!body) return;
  const owned = sql`from messages m join conversations c on c.id = m.conversation_id where m.id = ${messageId}`;
  await (
    isPostgres(db)
      ? sql`insert into message_search (seq, user_id, tsv) select m.seq, c.user_id, to_tsvector('simple', ${body}) ${owned}`
      : sql`insert into message_search (rowid, owner, body) select m.seq, 'u' || c.user_id, ${body} ${owned}`
  ).execute(db);
}

/** Searches the index; the reads of message search. */
export class MessageSearchRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** The caller's messages matching every phrase of the query, newest first. */
  async search(userId: number, query: SearchQuery, limit: number): Promise<MessageHit[]> {
    if (query.phrases.length === 0) return [];
    const columns = sql`
      m.id as message_id, m.conversation_id, c.title as conversation_title,
      coalesce(m.model_name, c.model_name) as model_name, m.role, m.content, m.created_at`;
    if (isPostgres(this.db)) {
      const r = await sql<MessageHit>`
        select ${columns}
        from message_search s
        join messages m on m.seq = s.seq
        join conversations c on c.id = m.conversation_id
        where s.user_id = ${userId} and c.user_id = ${userId} and c.hidden_at is null
          and s.tsv @@ to_tsquery('simple', ${toTsQuery(query)})
        order by s.seq desc
        limit ${limit}
      `.execute(this.db);
      return r.rows;
    }
    // The owner is an indexed column, so FTS5 narrows to the caller's entries itself. (MATCH
    // needs the table's own name: an alias is not accepted.)
    const match = `{owner} : "u${userId}" AND ${toFts5Match(query)}`;
    const r = await sql<MessageHit>`
      select ${columns}
      from message_search
      join messages m on m.seq = message_search.rowid
      join conversations c on c.id = m.conversation_id
      where message_search match ${match} and c.user_id = ${userId} and c.hidden_at is null
      order by message_search.rowid desc
      limit ${limit}
    `.execute(this.db);
    return r.rows;
  }
}
