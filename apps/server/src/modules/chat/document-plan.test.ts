import { DOCUMENT_LIMITS } from '@aiplatform/contracts';
import { describe, expect, it } from 'vitest';
import { documentCredits, passagesWithin, planDocuments } from './document-plan.js';
import { placeDocuments } from './document-prompt.js';
import { estimatedPassageTokens } from './send-documents.js';

const doc = (id: string, tokens: number) => ({ id, name: `${id}.pdf`, tokens, pages: 1 });
const base = { knowledgeBaseIds: [], historyTokens: 0, contextWindow: 10_000, fullContextShare: 0.5 };

describe('the document plan', () => {
  it('sends documents whole while they fit in the share of the context after the history, else searches them', () => {
    expect(planDocuments({ ...base, documents: [] })).toMatchObject({
      mode: 'none',
      whole: false,
      searchedFileIds: [],
    });
    expect(planDocuments({ ...base, documents: [doc('a', 3000), doc('b', 2000)] })).toMatchObject({
      mode: 'full',
      whole: true,
      budget: 5000,
      wholeTokens: 5000,
    });
    // One token of history more and they no longer fit: all of them go by relevance.
    expect(planDocuments({ ...base, historyTokens: 1, documents: [doc('a', 3000), doc('b', 2000)] })).toMatchObject({
      mode: 'retrieval',
      whole: false,
      searchedFileIds: ['a', 'b'],
      wholeTokens: 0,
    });
    expect(planDocuments({ ...base, historyTokens: 99_999, documents: [doc('a', 1)] }).budget).toBe(0);
  });

  it('searches knowledge bases on every turn, beside documents sent whole', () => {
    expect(planDocuments({ ...base, knowledgeBaseIds: [3], documents: [] })).toMatchObject({
      mode: 'retrieval',
      searchedFileIds: [],
    });
    expect(planDocuments({ ...base, knowledgeBaseIds: [3], documents: [doc('a', 10)] })).toMatchObject({
      mode: 'full',
      whole: true,
    });
  });

  it('fits passages into what is left, best first, the best one always', () => {
    const p = (tokens: number) => ({ tokens });
    expect(passagesWithin([p(300), p(300), p(300)], 700)).toEqual([p(300), p(300)]);
    expect(passagesWithin([p(900), p(10)], 100)).toEqual([p(900)]);
    expect(
      passagesWithin(
        Array.from({ length: 20 }, () => p(1)),
        1000,
      ),
    ).toHaveLength(DOCUMENT_LIMITS.retrievalPassages);
    expect(estimatedPassageTokens(300, 700)).toBe(600);
    expect(estimatedPassageTokens(300, 0)).toBe(300);
    expect(estimatedPassageTokens(10, 10_000)).toBe(10 * DOCUMENT_LIMITS.retrievalPassages);
    expect(estimatedPassageTokens(0, 10_000)).toBe(0);
  });

  it('prices document tokens per 1,000, rounded up, and nothing when the model does not price them', () => {
    expect(documentCredits(1500, 7)).toBe(11);
    expect(documentCredits(1000, 7)).toBe(7);
    expect(documentCredits(1, 1)).toBe(1);
    expect(documentCredits(5000, 0)).toBe(0);
    expect(documentCredits(0, 7)).toBe(0);
  });

  it('places a document once, in the first question that attached it; passages only in the last', () => {
    const m = (content: string, documents: string[] = []) => ({
      role: 'user' as const,
      content,
      images: [],
      documents,
    });
    const placed = placeDocuments(
      [m('one', ['a']), { role: 'assistant', content: 'ok', images: [] }, m('two', ['a'])],
      {
        whole: new Map([['a', '<A>']]),
        passages: [{ fileId: 'k', fileName: 'k.pdf', page: 4, text: 'found' }],
      },
    );
    expect(placed.map((x) => x.content)).toEqual([
      '<A>\n\none',
      'ok',
      '<passages>\n[1] k.pdf, page 4\nfound\n</passages>\n\ntwo',
    ]);
  });
});
