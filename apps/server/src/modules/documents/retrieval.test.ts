import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractPages, insertDocument, insertKnowledgeBase } from '../../../test/document-fixtures.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { ChunkSearchRepo, mergeRanges } from './chunk-search.repo.js';
import { Retrieval } from './retrieval.js';
import { cjkPairsOf, rankTermsOf } from './retrieval-query.js';

const FACT_EN = 'The warranty period for the pump assembly is 36 months from the date of delivery.';
const FACT_ZH = '本合同约定的违约金为合同总额的百分之五。';

// PostgreSQL ranks a large scope's chunks in two steps (candidates by the terms' rarity, then
// ts_rank); `smallScope: 0` makes every scope large, so the same facts must come first that way too.
describe.each([
  ['every match ranked', {}],
  ['candidates first', { smallScope: 0 }],
])('retrieval (%s)', (_name, repoOptions) => {
  let t: TestApp;
  let retrieval: Retrieval;
  let manual: string;
  let other: string;
  let kbId: number;

  beforeAll(async () => {
    t = await createTestApp();
    retrieval = new Retrieval(new ChunkSearchRepo(t.db, repoOptions));
    const user = await t.db.selectFrom('users').select('id').executeTakeFirstOrThrow();
    // Distractors share many words with the facts (warranty, delivery, 合同 …).
    const distractors = {
      3: 'The warranty does not cover damage caused by wrong use of the equipment.',
      12: 'Delivery of the pump housing is confirmed by the carrier in writing.',
      19: '合同总额包括运输费用和安装费用。',
      33: 'The assembly instructions are part of the delivery.',
    };
    manual = await insertDocument(
      t.db,
      user.id,
      'manual.pdf',
      contractPages(40, { ...distractors, 27: `${FACT_EN}\n${FACT_ZH}` }),
    );
    other = await insertDocument(
      t.db,
      user.id,
      'other.pdf',
      contractPages(5, {
        2: 'The warranty period for the pump assembly is 12 months in the other contract. 违约金为百分之十。',
      }),
    );
    kbId = await insertKnowledgeBase(t.db, user.id, [other], 'kb');
  });
  afterAll(() => t.close());

  it('finds the fact on page 27 of 40 first, for an English question', async () => {
    const found = await retrieval.search({
      fileIds: [manual],
      knowledgeBaseIds: [],
      query: 'How long is the warranty on the pump assembly?',
      limit: 5,
    });
    expect(found[0]).toMatchObject({ fileId: manual, fileName: 'manual.pdf', page: 27 });
    expect(found[0]?.text).toContain('36 months');
    expect(found.every((p) => p.fileId === manual)).toBe(true);
    expect(found.map((p) => p.score)).toEqual([...found.map((p) => p.score)].sort((a, b) => b - a));
  });

  it('finds the fact on page 27 of 40 first, for a Chinese question', async () => {
    const found = await retrieval.search({
      fileIds: [manual],
      knowledgeBaseIds: [],
      query: '违约金是多少？',
      limit: 5,
    });
    expect(found[0]).toMatchObject({ fileId: manual, page: 27 });
    expect(found[0]?.text).toContain('百分之五');
  });

  it('keeps to the limit and to the documents and knowledge bases it is given', async () => {
    const question = 'warranty period pump assembly';
    const three = await retrieval.search({ fileIds: [manual], knowledgeBaseIds: [], query: question, limit: 3 });
    expect(three).toHaveLength(3);

    const fromKb = await retrieval.search({ fileIds: [], knowledgeBaseIds: [kbId], query: question, limit: 10 });
    expect(fromKb.length).toBeGreaterThan(0);
    expect(fromKb.every((p) => p.fileId === other)).toBe(true);
    expect(fromKb[0]?.text).toContain('12 months');

    const both = await retrieval.search({ fileIds: [manual], knowledgeBaseIds: [kbId], query: question, limit: 10 });
    expect(new Set(both.map((p) => p.fileId))).toEqual(new Set([manual, other]));

    expect(await retrieval.search({ fileIds: [], knowledgeBaseIds: [], query: question, limit: 10 })).toEqual([]);
    expect(await retrieval.search({ fileIds: [manual], knowledgeBaseIds: [], query: '?!', limit: 10 })).toEqual([]);
  });

  it('forgets a document taken out of a knowledge base at once', async () => {
    const user = await t.db.selectFrom('users').select('id').executeTakeFirstOrThrow();
    const doc = await insertDocument(
      t.db,
      user.id,
      'gone.pdf',
      contractPages(2, { 1: 'The zeppelin hangar is north.' }),
    );
    const now = new Date().toISOString();
    await t.db
      .insertInto('knowledge_base_documents')
      .values({ knowledge_base_id: kbId, file_id: doc, created_at: now })
      .execute();
    const ask = () => retrieval.search({ fileIds: [], knowledgeBaseIds: [kbId], query: 'zeppelin hangar', limit: 3 });
    expect((await ask())[0]?.fileId).toBe(doc);
    await t.db.deleteFrom('knowledge_base_documents').where('file_id', '=', doc).execute();
    expect((await ask()).some((p) => p.fileId === doc)).toBe(false);
  });
});

describe('retrieval terms', () => {
  it('drop common English words, pair Chinese characters, and keep only words', () => {
    expect(rankTermsOf('How long is the warranty?')).toEqual([['long'], ['warranty']]);
    expect(rankTermsOf('违约金是多少')).toEqual([
      ['违', '约'],
      ['约', '金'],
      ['多', '少'],
    ]);
    expect(rankTermsOf('是是的物在多的')).toEqual([['物'], ['多']]);
    expect(rankTermsOf('什么是')).toEqual([
      ['什', '么'],
      ['么', '是'],
    ]);
    expect(rankTermsOf('the is')).toEqual([['the'], ['is']]);
    expect(rankTermsOf('"a" OR * NEAR(')).toEqual([['near']]);
  });

  it('index each two consecutive CJK characters as a pair (PostgreSQL), each once', () => {
    expect(cjkPairsOf('合 同 the 违 约 金 x 合 同')).toEqual(['合同', '违约', '约金']);
    expect(cjkPairsOf('warranty 36 months')).toEqual([]);
    expect(cjkPairsOf('')).toEqual([]);
  });

  it('merge chunk id ranges down to the most allowed, closing the smallest gaps', () => {
    expect(
      mergeRanges(
        [
          [10, 20],
          [1, 5],
          [6, 8],
          [100, 120],
        ],
        2,
      ),
    ).toEqual([
      [1, 20],
      [100, 120],
    ]);
  });
});
