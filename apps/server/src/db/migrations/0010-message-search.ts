import { type Kysely, PostgresAdapter, sql } from 'kysely';

/** Messages indexed per round of the fill, so a large history never sits in memory at once. */
const FILL_BATCH = 500;

/**
 * Full-text search over message text. The index text is made in TypeScript (every CJK
 * character a token of its own; the live rule is modules/chat/search-text.ts, copied below
 * as it stood here), so both databases index the same tokens and the filling below cannot
 * be plain SQL.
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

/*
 * The index text of a message as this migration made it, frozen: markdown marks dropped
 * (as the reader sees the text), then every Han, kana and hangul character a token of its
 * own and other scripts' words lower-cased, NFKC-folded and without Latin/Greek/Cyrillic
 * accents, joined by single spaces and cut between tokens at 200,000 characters.
 */
const MARKDOWN_NOISE: [RegExp, string][] = [
  [/```[^\n]*\n?([\s\S]*?)(```|$)/g, '$1'],
  [/!\[([^\]]*)\]\([^)]*\)/g, '$1'],
  [/\[([^\]]+)\]\([^)]*\)/g, '$1'],
  [/<[^>]+>/g, ' '],
  [/^\s{0,3}(#{1,6}|>+|[-*+]|\d+[.)])\s+/gm, ''],
  [/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/gm, ''],
  [/\|/g, ' '],
  [/\${1,2}/g, ''],
  [/(\*\*|~~|`|\*)/g, ''],
  [/(?<!\w)_{1,2}(?=\S)|(?<=\S)_{1,2}(?!\w)/g, ''],
];
const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
const TOKEN_PATTERN = new RegExp(`[${CJK}]|(?:(?![${CJK}])[\\p{L}\\p{N}\\p{M}])+`, 'gu');
const CJK_CHAR = new RegExp(`^[${CJK}]$`, 'u');
const ACCENTS = /[\u0300-\u036f]/g;
const NON_WORD = /[^\p{L}\p{N}\p{M}]/gu;
const INDEX_TEXT_MAX = 200_000;

function plainText(content: string): string {
  let text = content;
  for (const [pattern, replacement] of MARKDOWN_NOISE) text = text.replace(pattern, replacement);
  return text.replace(/\s+/g, ' ').trim();
}

function normalizeToken(raw: string): string {
  const folded = raw.normalize('NFKC').toLowerCase().replace(NON_WORD, '');
  if (CJK_CHAR.test(folded)) return folded;
  return folded.normalize('NFD').replace(ACCENTS, '').normalize('NFC');
}

function indexTextOf(content: string): string {
  const tokens: string[] = [];
  for (const m of plainText(content).matchAll(TOKEN_PATTERN)) {
    const token = normalizeToken(m[0]);
    if (token) tokens.push(token);
  }
  const text = tokens.join(' ');
  if (text.length <= INDEX_TEXT_MAX) return text;
  return text.slice(0, text.lastIndexOf(' ', INDEX_TEXT_MAX));
}
