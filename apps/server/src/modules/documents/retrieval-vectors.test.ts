import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDocument, insertKnowledgeBase } from '../../../test/document-fixtures.js';
import { createTestApp, TEST_DATABASE_URL, type TestApp } from '../../../test/test-app.js';
import { ChunkSearchRepo } from './chunk-search.repo.js';
import { DocumentFilesRepo } from './document-files.repo.js';
import { fuseRanks } from './rank-fusion.js';
import { type QueryEmbedder, Retrieval } from './retrieval.js';
import { nearest, toEmbeddingBytes } from './vector-scoring.js';

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

  it('scores with sqlite-vec on SQLite and exactly on PostgreSQL', async () => {
    expect(await new ChunkSearchRepo(t.db).vectors.scoring()).toBe(TEST_DATABASE_URL ? 'exact' : 'sqlite-vec');
  });

  it('orders as exact cosine scoring does, and ignores vectors of another length or none', async () => {
    const user = await t.db.selectFrom('users').select('id').executeTakeFirstOrThrow();
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648 - 0.5;
    };
    const texts = Array.from({ length: 40 }, (_, i) => ({ page: i + 1, seq: i, text: `Passage ${i}.`, tokens: 3 }));
    const many = await insertDocument(t.db, user.id, 'many.pdf', [{ page: 1, text: '' }], texts);
    const rows = await t.db.selectFrom('document_chunks').select('id').where('file_id', '=', many).execute();
    const stored: { id: number; embedding: Buffer }[] = [];
    for (const r of rows) {
      const embedding = toEmbeddingBytes(Array.from({ length: 16 }, next));
      stored.push({ id: r.id, embedding });
      await t.db
        .updateTable('document_chunks')
        .set({ embedding, embedding_model: 'emb-r' })
        .where('id', '=', r.id)
        .execute();
    }
    const scope = { fileIds: [many], knowledgeBaseIds: [] };
    const vectors = new ChunkSearchRepo(t.db).vectors;
    const query = Float32Array.from(Array.from({ length: 16 }, next));
    const found = await vectors.nearest(scope, 'emb-r', query, 10);
    const expected = nearest(query, stored, 10);
    expect(found.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    found.forEach((r, i) => expect(r.score).toBeCloseTo(expected[i]!.score, 5));
    // A question of another length (a model misconfigured) or of no direction finds nothing, and fails nothing.
    expect(await vectors.nearest(scope, 'emb-r', Float32Array.from([1, 0, 0]), 10)).toEqual([]);
    expect(await vectors.nearest(scope, 'emb-r', new Float32Array(16), 10)).toEqual([]);
  });

  it('finds no vector of a deleted document, and the new model’s vectors after a change', async () => {
    const user = await t.db.selectFrom('users').select('id').executeTakeFirstOrThrow();
    const pages = [
      { page: 1, text: 'Parking is behind the building.' },
      { page: 2, text: 'Visitors sign in at the front desk.' },
    ];
    const chunks = pages.map((p, seq) => ({ page: p.page, seq, text: p.text, tokens: 6 }));
    const a = await insertDocument(t.db, user.id, 'a.pdf', pages, chunks);
    const b = await insertDocument(t.db, user.id, 'b.pdf', pages, chunks);
    const kb = await insertKnowledgeBase(t.db, user.id, [a, b], 'site');
    const setVectors = async (file: string, model: string, byPage: Record<number, number[]>) => {
      const rows = await t.db
        .selectFrom('document_chunks')
        .select(['id', 'page'])
        .where('file_id', '=', file)
        .execute();
      for (const r of rows)
        await t.db
          .updateTable('document_chunks')
          .set({ embedding: toEmbeddingBytes(byPage[r.page!]!), embedding_model: model })
          .where('id', '=', r.id)
          .execute();
      return Object.fromEntries(rows.map((r) => [r.page!, r.id]));
    };
    const idsA = await setVectors(a, 'emb-s', { 1: [1, 0], 2: [0, 1] });
    const idsB = await setVectors(b, 'emb-s', { 1: [0.9, 0.1], 2: [0.1, 0.9] });
    const vectors = new ChunkSearchRepo(t.db).vectors;
    const scope = { fileIds: [], knowledgeBaseIds: [kb] };
    const near = (model: string, v: number[]) =>
      vectors.nearest(scope, model, Float32Array.from(v), 10).then((r) => r.map((x) => x.id));

    expect(await near('emb-s', [0, 1])).toEqual([idsA[2], idsB[2], idsB[1]]);

    // Deleted as a person deletes it: its chunks, and their vectors with them.
    expect(await new DocumentFilesRepo(t.db).deleteUnlisted(b)).toBe(true);
    expect(await near('emb-s', [0, 1])).toEqual([idsA[2]]);

    // The embedding model changes: each chunk's vector is replaced by the new model's.
    await setVectors(a, 'emb-t', { 1: [0, 1], 2: [1, 0] });
    expect(await near('emb-s', [0, 1])).toEqual([]);
    expect(await near('emb-t', [0, 1])).toEqual([idsA[1]]);
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
