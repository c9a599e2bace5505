import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Database, Db } from '../../db/types.js';
import { type RankTerm, toFts5Any, toTsTerm } from './retrieval-query.js';
import { type SearchScope, scopeFiles } from './search-scope.repo.js';
import { VectorSearch } from './vector-search.repo.js';

export type { SearchScope } from './search-scope.repo.js';

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

/** A chunk and how well it matched (higher is better). */
export interface RankedChunk {
  id: number;
  score: number;
}

export interface PassageRow {
  id: number;
  file_id: string;
  file_name: string;
  page: number | null;
  text: string;
  tokens: number;
}

/**
 * FTS5 ranges searched in one statement: SQLite allows 500 selects in a compound one, and
 * past a few dozen the ranges are better merged (the exact file filter still applies).
 */
const MAX_RANGES = 64;

/** PostgreSQL: a scope of at most this many chunks ranks every match (see rankTextPostgres). */
const SMALL_SCOPE = 5000;

/** PostgreSQL: chunks ranked by ts_rank for a search of `limit` in a larger scope, at most. */
const candidatesFor = (limit: number) => limit * 4 + 32;

/**
 * Sorted id ranges merged until at most `max` remain, closing the smallest gaps first
 * (what a gap lets in is taken out again by the file filter).
 */
export function mergeRanges(ranges: readonly [number, number][], max = MAX_RANGES): [number, number][] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = merged.at(-1);
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else merged.push([lo, hi]);
  }
  while (merged.length > max) {
    let best = 1;
    for (let i = 2; i < merged.length; i++)
      if (merged[i]![0] - merged[i - 1]![1] < merged[best]![0] - merged[best - 1]![1]) best = i;
    merged[best - 1]![1] = merged[best]![1];
    merged.splice(best, 1);
  }
  return merged;
}

/**
 * The reads of retrieval: full-text ranking of the chunks of some documents, their
 * embeddings (`vectors`), and the passages themselves. SQLite ranks with FTS5's bm25() over the
 * contentless `chunk_search` (rowid = chunk id); the search is held to the documents' chunk
 * id ranges (a document's chunks are written together, so its ids are close), which FTS5
 * applies inside the index instead of ranking every matching chunk of the site. PostgreSQL
 * ranks with ts_rank over the tsvector side table, a bounded number of candidates in a large
 * scope (rankTextPostgres).
 */
export class ChunkSearchRepo {
  /** `smallScope`: PostgreSQL scopes of at most this many chunks rank every match (tests lower it). */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: { smallScope?: number } = {},
  ) {
    this.vectors = new VectorSearch(db);
  }

  /** The embeddings' side of retrieval: the chunks nearest a question's vector. */
  readonly vectors: VectorSearch;

  /** The best `limit` chunks of the scope for any of the terms, best first. */
  async rankText(scope: SearchScope, terms: readonly RankTerm[], limit: number): Promise<RankedChunk[]> {
    if (terms.length === 0 || (scope.fileIds.length === 0 && scope.knowledgeBaseIds.length === 0)) return [];
    if (isPostgres(this.db)) return this.rankTextPostgres(scope, terms, limit);
    const ranges = await this.chunkRanges(scope);
    if (ranges.length === 0) return [];
    const match = toFts5Any(terms);
    const perRange = sql.join(
      ranges.map(
        ([lo, hi]) =>
          sql`select rowid as id, bm25(chunk_search) as rank from chunk_search where chunk_search match ${match} and rowid between ${lo} and ${hi}`,
      ),
      sql` union all `,
    );
    // bm25() is lower for a better match. The best candidates of the ranges first; most often
    // they are all the scope's own, and only when merged ranges let others in and too few are
    // left does the file filter run over every match.
    const inner = limit * 4 + 20;
    const candidates = (
      await sql<{
        id: number;
        rank: number;
      }>`select id, rank from (${perRange}) order by rank, id limit ${inner}`.execute(this.db)
    ).rows;
    if (candidates.length === 0) return [];
    const own = new Set(
      (
        await sql<{ id: number }>`
          select id from document_chunks
          where id in (${sql.join(candidates.map((c) => sql`${c.id}`))}) and file_id in (${scopeFiles(scope)})
        `.execute(this.db)
      ).rows.map((r) => r.id),
    );
    let rows = candidates.filter((c) => own.has(c.id)).slice(0, limit);
    if (rows.length < limit && candidates.length === inner) {
      rows = (
        await sql<{ id: number; rank: number }>`
          select m.id, m.rank from (${perRange}) m
          join document_chunks c on c.id = m.id
          where c.file_id in (${scopeFiles(scope)})
          order by m.rank, m.id
          limit ${limit}
        `.execute(this.db)
      ).rows;
    }
    return rows.map((r) => ({ id: r.id, score: -r.rank }));
  }

  /**
   * PostgreSQL. Terms are plain lexemes (pairs of CJK characters included), so the GIN index
   * alone says which chunks hold a term, without reading their tsvectors; ts_rank reads a
   * chunk's whole tsvector (a few KB, stored out of line), and a common word of a question
   * can match tens of thousands of chunks. A scope of at most `SMALL_SCOPE` chunks ranks every
   * match, as the planner finds best. A larger one first looks for each term on its own in the
   * index, gives every matching chunk the sum of its terms' rarity (ln(1 + chunks matched /
   * chunks holding the term), as BM25 weighs terms), and ranks only the best
   * `candidatesFor(limit)` of those by ts_rank.
   */
  private async rankTextPostgres(scope: SearchScope, terms: readonly RankTerm[], limit: number) {
    const queries = terms.map((term) => {
      const t = toTsTerm(term);
      return t.pair ? sql`${t.text}::tsquery` : sql`to_tsquery('simple', ${t.text})`;
    });
    // Made once (materialized): a stable function in an expression is made again for every row.
    const question = sql`question as materialized (select ${sql.join(queries, sql` || `)} as q)`;
    const small = this.options.smallScope ?? SMALL_SCOPE;
    const counted = await sql<{ n: number | string }>`
      select count(*) as n from (
        select 1 from chunk_search where file_id in (${scopeFiles(scope)}) limit ${small + 1}
      ) s
    `.execute(this.db);
    if (Number(counted.rows[0]?.n ?? 0) <= small) {
      const r = await sql<RankedChunk>`
        with ${question}
        select s.chunk_id as id, ts_rank(s.tsv, question.q, 1) as score
        from chunk_search s cross join question
        where s.file_id in (${scopeFiles(scope)}) and s.tsv @@ question.q
        order by score desc, s.chunk_id
        limit ${limit}
      `.execute(this.db);
      return r.rows.map((row) => ({ id: row.id, score: Number(row.score) }));
    }
    // A list of values, not a union: the union's parallel plan started workers for a few
    // milliseconds of work. The terms are looked up in the index before the scope applies
    // (`found`, materialized): given both at once, a planner misled by statistics not yet
    // gathered (a knowledge base just filled) read every chunk of the scope's documents and
    // checked each term against its whole tsvector, hundreds of thousands of times.
    const r = await sql<RankedChunk>`
      with terms (i, q) as (values ${sql.join(queries.map((q, i) => sql`(${sql.lit(i)}, ${q})`))}),
      ${question},
      found as materialized (
        select s.chunk_id, s.file_id, t.i from terms t join chunk_search s on s.tsv @@ t.q
      ),
      hits as materialized (select chunk_id, i from found where file_id in (${scopeFiles(scope)})),
      df as (select i, count(*) as n from hits group by i),
      matched as (select count(distinct chunk_id) as n from hits),
      candidates as (
        select h.chunk_id, sum(ln(1 + matched.n::float8 / df.n)) as weight
        from hits h join df on df.i = h.i cross join matched
        group by h.chunk_id
        order by weight desc, h.chunk_id
        limit ${candidatesFor(limit)}
      )
      select c.chunk_id as id, ts_rank(s.tsv, question.q, 1) as score
      from candidates c join chunk_search s on s.chunk_id = c.chunk_id cross join question
      order by score desc, c.chunk_id
      limit ${limit}
    `.execute(this.db);
    return r.rows.map((row) => ({ id: row.id, score: Number(row.score) }));
  }

  /** Chunk id ranges of the scope's documents (SQLite), merged. */
  private async chunkRanges(scope: SearchScope): Promise<[number, number][]> {
    // One seek each on the index of file_id (rowid included): no chunk of a document is read.
    const r = await sql<{ lo: number | null; hi: number | null }>`
      select
        (select min(id) from document_chunks c where c.file_id = s.file_id) as lo,
        (select max(id) from document_chunks c where c.file_id = s.file_id) as hi
      from (${scopeFiles(scope)}) s
    `.execute(this.db);
    return mergeRanges(r.rows.flatMap((row) => (row.lo === null || row.hi === null ? [] : [[row.lo, row.hi]])));
  }

  /** The passages of these chunks with their documents' names (in no particular order). */
  async passages(ids: readonly number[]): Promise<PassageRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('document_chunks as c')
      .innerJoin('files as f', 'f.id', 'c.file_id')
      .select(['c.id', 'c.file_id', 'f.original_name as file_name', 'c.page', 'c.text', 'c.tokens'])
      .where('c.id', 'in', ids)
      .execute();
  }
}
