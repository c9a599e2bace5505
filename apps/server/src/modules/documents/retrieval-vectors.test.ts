import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDocument } from '../../../test/document-fixtures.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { ChunkSearchRepo } from './chunk-search.repo.js';
import { fuseRanks } from './rank-fusion.js';
import { type QueryEmbedder, Retrieval } from './retrieval.js';
import { toEmbeddingBytes } from './vector-scoring.js';

/*
 * The vector half of retrieval, with embeddings written straight into the chunks and a
 * question embedder that answers a fixed vector: what it changes in the ranking, and that a
 * failing embedder leaves the full-text ranking as it was.
 */
describe('retrieval with vectors', () => {
  let t: TestApp;
  let doc: string;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp();
    const user = await t.db.selectFrom('users').select('id').executeTakeFirstOrThrow();
    const pages = [
      { page: 1, text: 'Refunds are paid to the original card within ten days.' },
      { page: 2, text: 'Money back goes to the account it came from, usually within a week.' },
      { page: 3, text: 'The office is closed on public holidays.' },
    ];
    doc = await insertDocument(
      t.db,
      user.id,
      'policy.pdf',
      pages,
      pages.map((p, seq) => ({ page: p.page, seq, text: p.text, tokens: 12 })),
    );
    const chunks = await t.db.selectFrom('document_chunks').select(['id', 'page']).where('file_id', '=', doc).execute();
    const vectors: Record<number, number[]> = { 1: [1, 0, 0], 2: [0, 1, 0], 3: [0, 0, 1] };
    for (const c of chunks) {
      ids[`p${c.page}`] = c.id;
      await t.db
        .updateTable('document_chunks')
        .set({ embedding: toEmbeddingBytes(vectors[c.page!]!), embedding_model: 'emb-1' })
        .where('id', '=', c.id)
        .execute();
    }
  });
  afterAll(() => t.close());

  const embedder = (vector: number[], model = 'emb-1'): QueryEmbedder => ({
    embedQuery: () => Promise.resolve({ model, vector: Float32Array.from(vector) }),
  });
  const ask = (r: Retrieval) => r.search({ fileIds: [doc], knowledgeBaseIds: [], query: 'refunds', limit: 3 });

  it('finds by meaning a passage the words alone miss, fused with the full-text ranking', async () => {
    const textOnly = await ask(new Retrieval(new ChunkSearchRepo(t.db)));
    expect(textOnly.map((p) => p.chunkId)).toEqual([ids.p1]);

    // The question's vector is closest to page 2's passage (no word in common), then page 1's; page 3's is unrelated.
    const both = await ask(new Retrieval(new ChunkSearchRepo(t.db), embedder([0.6, 0.8, 0])));
    expect(both.map((p) => p.chunkId)).toEqual([ids.p1, ids.p2]);
    expect(both[0]!.score).toBeGreaterThan(both[1]!.score);
  });

  it('ignores embeddings of another model, and a failing embedder', async () => {
    const other = await ask(new Retrieval(new ChunkSearchRepo(t.db), embedder([0, 1, 0], 'emb-2')));
    expect(other.map((p) => p.chunkId)).toEqual([ids.p1]);
    const failing: QueryEmbedder = { embedQuery: () => Promise.reject(new Error('upstream down')) };
    const r = await ask(new Retrieval(new ChunkSearchRepo(t.db), failing));
    expect(r.map((p) => p.chunkId)).toEqual([ids.p1]);
  });

  it('fuses by places: agreement beats one list’s first place', () => {
    expect(
      fuseRanks([
        [1, 2, 3],
        [2, 3, 1],
      ]).map((r) => r.id),
    ).toEqual([2, 1, 3]);
    expect(fuseRanks([[], [5]])).toEqual([{ id: 5, score: 1 / 61 }]);
  });
});
