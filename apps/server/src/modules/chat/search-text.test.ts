import { describe, expect, it } from 'vitest';
import { indexTextOf } from './message-search.repo.js';
import { SNIPPET_MAX_CHARS, buildSnippet } from './search-snippet.js';
import { findMatches, parseQuery, toFts5Match, toIndexText, toTsQuery, tokenize } from './search-text.js';

const marked = (s: { snippet: string; highlights: [number, number][] }) =>
  s.highlights.map(([a, b]) => s.snippet.slice(a, b));

describe('search text segmentation', () => {
  it('makes every Han, kana and hangul character a token and keeps other words whole, lower-cased', () => {
    expect(toIndexText('我们的数据库很快')).toBe('我 们 的 数 据 库 很 快');
    expect(toIndexText('用Kysely写migration，很好！')).toBe('用 kysely 写 migration 很 好');
    expect(toIndexText('カタカナとひらがな 한국어')).toBe('カ タ カ ナ と ひ ら が な 한 국 어');
    expect(toIndexText('GPT-4.1 mini_model')).toBe('gpt 4 1 mini model');
  });

  it('folds width, case and Latin accents so the query needs neither', () => {
    expect(toIndexText('Ｋｙｓｅｌｙ Café ÉCOLE ｶﾀｶﾅ')).toBe('kysely cafe ecole カ タ カ ナ');
  });

  it('indexes what the reader sees, and at most 200,000 characters cut between tokens', () => {
    expect(indexTextOf('**Bold** [link](https://example.com/secret) `code`')).toBe('bold link code');
    const long = indexTextOf('abcdefg '.repeat(30_000));
    expect(long.length).toBeLessThanOrEqual(200_000);
    expect(long.split(' ').every((t) => t === 'abcdefg')).toBe(true);
  });

  it('keeps the place of each token in the original text', () => {
    const text = 'Hello, 世界!';
    expect(tokenize(text).map((t) => [t.token, text.slice(t.start, t.end)])).toEqual([
      ['hello', 'Hello'],
      ['世', '世'],
      ['界', '界'],
    ]);
  });

  it('turns a query into phrases that must all occur, the last word also as a prefix', () => {
    expect(parseQuery('数据库')).toEqual({ phrases: [['数', '据', '库']], prefix: false });
    expect(parseQuery('Kysely  migration')).toEqual({ phrases: [['kysely'], ['migration']], prefix: true });
    expect(parseQuery('migration x')).toEqual({ phrases: [['migration'], ['x']], prefix: false });
  });

  it('never lets query syntax through: quotes, operators and stars only separate words', () => {
    for (const hostile of ['a" OR b', '*', 'NEAR(', '"', "' or 1=1 --", '{owner} : "u1"', 'a:* & !b', '\\']) {
      const q = parseQuery(hostile);
      for (const phrase of q.phrases) for (const token of phrase) expect(token).toMatch(/^[\p{L}\p{N}\p{M}]+$/u);
    }
    expect(parseQuery('*').phrases).toEqual([]);
    expect(toFts5Match(parseQuery('a" OR bc'))).toBe('{body} : ("a" AND "or" AND "bc" *)');
    expect(toFts5Match(parseQuery('NEAR( 数据库'))).toBe('{body} : ("near" AND "数 据 库")');
    expect(toTsQuery(parseQuery('数据库 Kysely'))).toBe("'数' <-> '据' <-> '库' & 'kysely':*");
  });

  it('finds phrases by whole tokens, the last one also by its beginning', () => {
    const text = 'The Kysely migrations; 我们的数据库很快. Datab';
    const ranges = (q: string) => findMatches(text, parseQuery(q)).map(([a, b]) => text.slice(a, b));
    expect(ranges('数据库')).toEqual(['数据库']);
    expect(ranges('据库很')).toEqual(['据库很']);
    expect(ranges('数库')).toEqual([]);
    expect(ranges('kysely MIGRAT')).toEqual(['Kysely', 'migrations']);
    expect(ranges('migrat kysely')).toEqual(['Kysely']);
    expect(ranges('he')).toEqual([]);
  });
});

describe('search snippets', () => {
  it('returns a short message whole with every hit marked, case-insensitively', () => {
    const s = buildSnippet('Use **Kysely** for the `migration`; kysely is typed.', parseQuery('KYSELY'));
    expect(s.snippet).toBe('Use Kysely for the migration; kysely is typed.');
    expect(marked(s)).toEqual(['Kysely', 'kysely']);
  });

  it('cuts a long message around the first hit, with ellipses, within the length', () => {
    const before = 'lorem ipsum dolor sit amet '.repeat(20);
    const after = ' consectetur adipiscing elit'.repeat(20);
    const s = buildSnippet(`${before}我们的数据库很快${after}`, parseQuery('数据库'));
    expect(s.snippet.length).toBeLessThanOrEqual(SNIPPET_MAX_CHARS);
    expect(s.snippet.startsWith('…')).toBe(true);
    expect(s.snippet.endsWith('…')).toBe(true);
    expect(marked(s)).toEqual(['数据库']);
    // Some context before the hit, starting at a word.
    expect(s.snippet.indexOf('数据库')).toBeGreaterThan(10);
    expect(s.snippet).toMatch(/^…(lorem|ipsum|dolor|sit|amet) /);
  });

  it('keeps a hit near the end of a long message inside the snippet', () => {
    const s = buildSnippet(`${'x '.repeat(300)}the needle`, parseQuery('needle'));
    expect(s.snippet.endsWith('the needle')).toBe(true);
    expect(s.snippet.length).toBeLessThanOrEqual(SNIPPET_MAX_CHARS);
    expect(marked(s)).toEqual(['needle']);
  });

  it('never splits a character outside the basic plane', () => {
    const s = buildSnippet(`${'𠀀'.repeat(200)}数据库${'𠀀'.repeat(200)}`, parseQuery('数据库'));
    expect(s.snippet).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    expect(marked(s)).toEqual(['数据库']);
  });
});
