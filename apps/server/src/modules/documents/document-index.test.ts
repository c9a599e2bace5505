import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { DocumentIndexRepo } from './document-index.repo.js';

describe('document index', () => {
  let t: TestApp;
  let repo: DocumentIndexRepo;
  const fileId = crypto.randomUUID();

  beforeAll(async () => {
    t = await createTestApp();
    repo = new DocumentIndexRepo(t.db);
    const user = await t.db.selectFrom('users').select('id').executeTakeFirstOrThrow();
    await t.db
      .insertInto('files')
      .values({
        id: fileId,
        user_id: user.id,
        stored_name: 'x.pdf',
        original_name: 'contract.pdf',
        mime: 'application/pdf',
        size: 10,
        created_at: new Date().toISOString(),
        kind: 'document',
        status: 'ready',
      })
      .execute();
  });
  afterAll(() => t.close());

  const chunkCount = async () =>
    Number(
      (
        await t.db
          .selectFrom('document_chunks')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('keeps pages in order, replaces them whole, and a deleted file takes its chunks and index entries along', async () => {
    await repo.replace(t.db, fileId, [{ page: 1, text: 'old' }], [{ page: 1, seq: 0, text: 'old words', tokens: 2 }]);
    await repo.replace(
      t.db,
      fileId,
      [
        { page: 2, text: '第二页 合同' },
        { page: 1, text: 'first page' },
      ],
      [
        { page: 1, seq: 0, text: 'first page', tokens: 2 },
        { page: 2, seq: 1, text: '第二页 合同', tokens: 4 },
      ],
    );
    expect(await repo.pagesOf(fileId)).toEqual([
      { page: 1, text: 'first page' },
      { page: 2, text: '第二页 合同' },
    ]);
    expect((await repo.pagesOfMany([fileId])).get(fileId)).toHaveLength(2);
    expect(await chunkCount()).toBe(2);

    const postgres = t.db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
    const found = async (word: string) =>
      postgres
        ? (
            await sql<{
              n: string;
            }>`select count(*) as n from chunk_search where tsv @@ to_tsquery('simple', ${word})`.execute(t.db)
          ).rows[0]?.n
        : (
            await sql<{ n: number }>`select count(*) as n from chunk_search where chunk_search match ${word}`.execute(
              t.db,
            )
          ).rows[0]?.n;
    expect(Number(await found('合'))).toBe(1);
    expect(Number(await found('old'))).toBe(0);

    await t.db.deleteFrom('files').where('id', '=', fileId).execute();
    expect(await chunkCount()).toBe(0);
    expect(Number(await found('first'))).toBe(0);
    expect(await repo.pagesOf(fileId)).toEqual([]);
  });
});
