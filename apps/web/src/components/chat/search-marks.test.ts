import { describe, expect, it } from 'vitest';
import { searchQueryOf, searchesMessages, snippetParts } from './search-marks';

describe('snippetParts', () => {
  it('splits a snippet into plain and marked pieces that join back to it', () => {
    const snippet = '…our Kysely migration and kysely';
    const parts = snippetParts(snippet, [
      [5, 11],
      [26, 32],
    ]);
    expect(parts).toEqual([
      { text: '…our ', marked: false },
      { text: 'Kysely', marked: true },
      { text: ' migration and ', marked: false },
      { text: 'kysely', marked: true },
    ]);
    expect(parts.map((p) => p.text).join('')).toBe(snippet);
  });

  it('clips or skips ranges that overlap, run backwards or past the end', () => {
    const parts = snippetParts('数据库很快', [
      [0, 3],
      [1, 2],
      [2, 4],
      [4, 99],
    ]);
    expect(parts).toEqual([
      { text: '数据库', marked: true },
      { text: '很', marked: true },
      { text: '快', marked: true },
    ]);
    expect(snippetParts('plain', [])).toEqual([{ text: 'plain', marked: false }]);
  });
});

describe('search query', () => {
  it('is trimmed, cut to the server limit without splitting a character, and needs two characters', () => {
    expect(searchQueryOf('  kysely  ')).toBe('kysely');
    expect(searchQueryOf('x'.repeat(150))).toHaveLength(100);
    expect(searchQueryOf(`${'x'.repeat(99)}𠀀`)).toBe('x'.repeat(99));
    expect(searchesMessages('数')).toBe(false);
    expect(searchesMessages('数据')).toBe(true);
    expect(searchesMessages('𠀀')).toBe(false);
  });
});
