import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Database } from '../../db/types.js';
import { type SearchScope, scopeFiles } from './search-scope.repo.js';
import { nearest, toEmbeddingBytes } from './vector-scoring.js';

/**
 * How stored embeddings are compared with a question's: by sqlite-vec's distance function
 * inside SQLite when the extension is loaded (db/database.ts), otherwise exactly in
 * JavaScript (PostgreSQL always: pgvector is not used, see docs/documents.md).
 */
export type VectorScoring = 'sqlite-vec' | 'exact';

/** Embeddings scored in JavaScript per search, at most: each is read out of the database. */
export const EXACT_VECTOR_MAX = 20_000;

/** Embeddings scored by sqlite-vec per search, at most: each is still read and compared. */
export const SQLITE_VEC_MAX = 50_000;

/** Per database handle: whether sqlite-vec answers (asked once). */
const scoringOf = new WeakMap<object, Promise<VectorScoring>>();

/**
 * The chunks of a scope nearest a question's vector by cosine similarity, among the
 * embeddings of the question's model. Every embedding of the scope is compared (no
 * approximate index), so a scope with more than the scoring's maximum (`EXACT_VECTOR_MAX`,
 * `SQLITE_VEC_MAX`) is not searched by vector at all and ranks by full text alone. The
 * vectors live in the chunks' rows: deleting a document deletes them with its chunks, and
 * a new model's vector replaces the old in place, so no second index can fall behind.
 */
export class VectorSearch {
  constructor(private readonly db: Kysely<Database>) {}

  /** How this database scores embeddings. */
  scoring(): Promise<VectorScoring> {
    let known = scoringOf.get(this.db);
    if (!known) {
      known = this.detect();
      scoringOf.set(this.db, known);
    }
    return known;
  }

  private async detect(): Promise<VectorScoring> {
    if (this.db.getExecutor().adapter instanceof PostgresAdapter) return 'exact';
    try {
      await sql`select vec_version()`.execute(this.db);
      return 'sqlite-vec';
    } catch {
      return 'exact';
    }
  }

  /**
   * The `limit` chunks nearest `vector`, best first (score: cosine similarity); none pointing
   * away or across (similarity ≤ 0), none of another model or length. Empty when the scope
   * holds more embeddings of the model than can be scored.
   */
  async nearest(
    scope: SearchScope,
    model: string,
    vector: Float32Array,
    limit: number,
  ): Promise<{ id: number; score: number }[]> {
    if (limit <= 0 || (scope.fileIds.length === 0 && scope.knowledgeBaseIds.length === 0)) return [];
    if ((await this.scoring()) === 'exact') {
      const rows = (
        await sql<{ id: number; embedding: Buffer }>`
          select id, embedding from document_chunks
          where file_id in (${scopeFiles(scope)}) and embedding_model = ${model} and embedding is not null
          limit ${EXACT_VECTOR_MAX + 1}
        `.execute(this.db)
      ).rows;
      return rows.length > EXACT_VECTOR_MAX ? [] : nearest(vector, rows, limit);
    }
    const bytes = toEmbeddingBytes(vector);
    // Scored once (materialized) and counted: more than the maximum means too large a scope.
    // A zero vector has no direction: its distance is null and is left out with the rest.
    const r = await sql<{ id: number; distance: number; scored: number }>`
      with scored as materialized (
        select id, vec_distance_cosine(embedding, ${bytes}) as distance from document_chunks
        where file_id in (${scopeFiles(scope)}) and embedding_model = ${model} and length(embedding) = ${bytes.length}
        limit ${SQLITE_VEC_MAX + 1}
      )
      select id, distance, (select count(*) from scored) as scored from scored
      where distance < 1
      order by distance, id
      limit ${limit}
    `.execute(this.db);
    if (r.rows.length > 0 && r.rows[0]!.scored > SQLITE_VEC_MAX) return [];
    return r.rows.map((row) => ({ id: row.id, score: 1 - row.distance }));
  }
}
