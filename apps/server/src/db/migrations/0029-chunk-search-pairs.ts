import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Retrieval on PostgreSQL looks for a Chinese, Japanese or Korean question as pairs of
 * consecutive characters. As phrases ('提' <-> '条') the GIN index can only say that both
 * characters occur somewhere in a chunk, and every such chunk (most of them, for common
 * characters) had its whole tsvector read to check the order. From now on each pair is a
 * lexeme of its own ('提条', two characters: no other token is two CJK characters), found by
 * the index alone. This adds the pairs to the chunks indexed before: two single-character
 * CJK lexemes at consecutive positions make a pair (what the phrase used to match). SQLite's
 * FTS5 checks phrases in its own index and keeps them.
 */

/** One Han, kana or hangul character (the ranges in common use). */
const CJK =
  '^[\\u1100-\\u11FF\\u2E80-\\u2FDF\\u3005\\u3007\\u3021-\\u3029\\u3038-\\u303B\\u3041-\\u309F\\u30A0-\\u30FF' +
  '\\u3130-\\u318F\\u31F0-\\u31FF\\u3400-\\u4DBF\\u4E00-\\u9FFF\\uAC00-\\uD7AF\\uF900-\\uFAFF\\U00020000-\\U0003134F]$';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`
    update chunk_search s set tsv = s.tsv || p.pairs
    from (
      select x.chunk_id, array_to_tsvector(array_agg(distinct a.lexeme || b.lexeme)) as pairs
      from chunk_search x
      cross join lateral (select u.lexeme, unnest(u.positions) as pos from unnest(x.tsv) u) a
      join lateral (select u.lexeme, unnest(u.positions) as pos from unnest(x.tsv) u) b on b.pos = a.pos + 1
      where a.lexeme ~ ${sql.lit(CJK)} and b.lexeme ~ ${sql.lit(CJK)}
      group by x.chunk_id
    ) p
    where p.chunk_id = s.chunk_id
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`
    update chunk_search s set tsv = ts_delete(s.tsv, p.pairs)
    from (
      select x.chunk_id, array_agg(u.lexeme) as pairs
      from chunk_search x cross join lateral unnest(x.tsv) u
      where char_length(u.lexeme) = 2
        and substr(u.lexeme, 1, 1) ~ ${sql.lit(CJK)} and substr(u.lexeme, 2, 1) ~ ${sql.lit(CJK)}
      group by x.chunk_id
    ) p
    where p.chunk_id = s.chunk_id
  `.execute(db);
}
