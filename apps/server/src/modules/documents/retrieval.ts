import type { FastifyBaseLogger } from 'fastify';
import type { ChunkSearchRepo, SearchScope } from './chunk-search.repo.js';
import { fuseRanks } from './rank-fusion.js';
import { rankTermsOf } from './retrieval-query.js';

/** A passage found for a question, with its document, page and relevance (higher is better). */
export interface RetrievedPassage {
  chunkId: number;
  fileId: string;
  fileName: string;
  page: number | null;
  text: string;
  tokens: number;
  score: number;
}

/** What to search (access already checked by the caller) and for what. */
export interface RetrievalInput {
  fileIds: readonly string[];
  knowledgeBaseIds: readonly number[];
  query: string;
  limit: number;
}

/** The question as a vector, by the embedding model set up now; null when none is. */
export interface QueryEmbedder {
  embedQuery(query: string): Promise<{ model: string; vector: Float32Array } | null>;
}

/** Candidates each ranking brings to the fusion, at least. */
const FUSION_CANDIDATES = 50;

/**
 * Finds the passages of some documents and knowledge bases most relevant to a question:
 * full-text ranking always, and, when an embedding model is set up, the question's vector
 * against the chunks' embeddings, the two fused by reciprocal rank. A failing embedding
 * call leaves the full-text ranking alone: search keeps working while the model is away.
 */
export class Retrieval {
  constructor(
    private readonly repo: ChunkSearchRepo,
    private readonly embedder?: QueryEmbedder,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** The passages best first, at most `limit`. */
  async search(input: RetrievalInput): Promise<RetrievedPassage[]> {
    const limit = Math.max(0, Math.floor(input.limit));
    const scope: SearchScope = { fileIds: input.fileIds, knowledgeBaseIds: input.knowledgeBaseIds };
    if (limit === 0 || (scope.fileIds.length === 0 && scope.knowledgeBaseIds.length === 0)) return [];
    const terms = rankTermsOf(input.query);
    const vectorRanking = this.embedder
      ? this.rankByVector(scope, input.query, Math.max(limit, FUSION_CANDIDATES))
      : [];
    const [text, vector] = await Promise.all([
      this.repo.rankText(scope, terms, this.embedder ? Math.max(limit, FUSION_CANDIDATES) : limit),
      vectorRanking,
    ]);
    const ranked =
      vector.length === 0
        ? text.slice(0, limit)
        : fuseRanks([text.map((c) => c.id), vector.map((c) => c.id)]).slice(0, limit);
    const rows = new Map((await this.repo.passages(ranked.map((c) => c.id))).map((r) => [r.id, r]));
    return ranked.flatMap((c) => {
      const row = rows.get(c.id);
      if (!row) return [];
      return [
        {
          chunkId: row.id,
          fileId: row.file_id,
          fileName: row.file_name,
          page: row.page,
          text: row.text,
          tokens: row.tokens,
          score: c.score,
        },
      ];
    });
  }

  private async rankByVector(scope: SearchScope, query: string, limit: number) {
    try {
      const q = await this.embedder?.embedQuery(query);
      if (!q) return [];
      return await this.repo.vectors.nearest(scope, q.model, q.vector, limit);
    } catch (err) {
      this.log?.warn({ err }, 'retrieval: the question could not be embedded; full-text ranking alone');
      return [];
    }
  }
}
