import { describe, expect, it } from 'vitest';
import { chunkPages } from './chunking.js';
import { countTokens } from './token-count.js';

const sentence = (i: number) => `Sentence number ${i} says something about clause ${i} of the agreement.`;
const lines = (from: number, n: number) => Array.from({ length: n }, (_, i) => sentence(from + i)).join('\n');

describe('chunkPages', () => {
  it('cuts a long page into passages of a few hundred tokens that overlap', () => {
    const chunks = chunkPages([{ page: 4, text: lines(0, 200) }], true);
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) {
      expect(c.page).toBe(4);
      expect(c.tokens).toBe(countTokens(c.text));
      expect(c.tokens).toBeLessThanOrEqual(700);
    }
    expect(chunks.slice(0, -1).every((c) => c.tokens >= 400)).toBe(true);
    expect(chunks.map((c) => c.seq)).toEqual(chunks.map((_, i) => i));
    // The end of one passage opens the next.
    const [first, second] = chunks;
    const tail = first!.text.split('\n').at(-1)!;
    expect(second!.text.startsWith(tail.slice(-20)) || second!.text.includes(tail.slice(-20))).toBe(true);
  });

  it('never lets a passage span two pages, and starts one at a heading', () => {
    const chunks = chunkPages(
      [
        { page: 1, text: `${lines(0, 20)}\n# Payment\nInvoices are due in thirty days.` },
        { page: 2, text: 'Short second page.' },
      ],
      true,
    );
    expect(chunks.map((c) => c.page)).toEqual([1, 1, 2]);
    expect(chunks[1]?.text.startsWith('# Payment')).toBe(true);
    expect(chunks[2]?.text).toBe('Short second page.');
  });

  it('gives passages of a document without pages no page, and cuts a line too long for one', () => {
    const chunks = chunkPages([{ page: 1, text: 'word '.repeat(3000) }], false);
    expect(chunks.length).toBeGreaterThan(4);
    expect(chunks.every((c) => c.page === null && c.tokens <= 700)).toBe(true);
  });

  it('makes nothing of empty pages', () => {
    expect(
      chunkPages(
        [
          { page: 1, text: '' },
          { page: 2, text: '\n\n' },
        ],
        true,
      ),
    ).toEqual([]);
  });
});
