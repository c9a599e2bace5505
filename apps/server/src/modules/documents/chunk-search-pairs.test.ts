import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractPages, insertDocument } from '../../../test/document-fixtures.js';
import { createTestApp, TEST_DATABASE_URL, type TestApp } from '../../../test/test-app.js';
import { down, up } from '../../db/migrations/0029-chunk-search-pairs.js';
import { ChunkSearchRepo } from './chunk-search.repo.js';
import { Retrieval } from './retrieval.js';

// PostgreSQL only: SQLite's FTS5 looks for pairs as phrases and its index has no pair lexemes.
describe.skipIf(!TEST_DATABASE_URL)('pairs of CJK characters in the PostgreSQL index', () => {
  let t: TestApp;
  let doc: string;
  const ask = (query: string) =>
    new Retrieval(new ChunkSearchRepo(t.db)).search({ fileIds: [doc], knowledgeBaseIds: [], query, limit: 3 });

  beforeAll(async () => {
    t = await createTestApp();
    const user = await t.db.selectFrom('users').select('id').executeTakeFirstOrThrow();
    doc = await insertDocument(t.db, user.id, 'pairs.pdf', contractPages(6, { 4: '仓库钥匙由门卫保管。' }));
  });
  afterAll(() => t.close());

  it('are written with each chunk, and added by the migration to chunks indexed before', async () => {
    expect((await ask('钥匙在哪里？'))[0]).toMatchObject({ page: 4 });

    // As chunks written before the pairs were: single characters only; pairs are not found.
    await down(t.db as unknown as Kysely<unknown>);
    const left = await sql<{
      lexeme: string;
    }>`select unnest(tsvector_to_array(tsv)) as lexeme from chunk_search`.execute(t.db);
    expect(left.rows.some((r) => /^\p{Script=Han}{2}$/u.test(r.lexeme))).toBe(false);
    expect(left.rows.some((r) => r.lexeme === '钥')).toBe(true);
    expect(await ask('钥匙在哪里？')).toEqual([]);

    await up(t.db as unknown as Kysely<unknown>);
    const found = await ask('钥匙在哪里？');
    expect(found[0]).toMatchObject({ page: 4 });
    expect(found[0]?.text).toContain('门卫');
  });
});
