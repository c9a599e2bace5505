import { tokenize } from '../chat/search-text.js';

/*
 * A question turned into the terms relevance ranking looks for. Unlike message search,
 * where every word must occur, a question's words rarely all stand in one passage, so any
 * term may match (OR) and the ranking (BM25 / ts_rank) puts passages with more and rarer
 * terms first. The index splits Chinese, Japanese and Korean text into single characters;
 * single characters say little, so a run of them is looked for as its overlapping pairs
 * ("违约金" → 违约, 约金), which reward passages holding the same words. English words
 * that occur in nearly every passage (the, of, is …), and pairs with a Chinese character of
 * the same kind (是, 的, 什么 …), are left out unless nothing else is left, so they neither
 * cost time nor drown the words that matter (a Chinese question made only of such pairs is
 * looked for by its other characters one by one).
 */

const CJK_CHAR = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]$/u;

const STOPWORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
    'me my of on or our she should so than that the their them then there these they this those to was we ' +
    'were what when where which who whom why will with would you your he his her not no yes about any all ' +
    'also just more most some such only over under up out very may might must shall us am being both each ' +
    'few other own same too s t don doesn didn isn aren wasn weren'
  ).split(' '),
);

/**
 * Chinese characters that mostly make grammar or ask the question (的, 了, 是, 什么 …): a pair
 * holding one is as common as an English stopword, so it is left out the same way.
 */
const CJK_STOP = new Set(
  Array.from('的了是在和与及或也都就又而且但被把对从到向于以为之其这那哪些个么什怎吗呢吧啊呀我你他她它们有没不'),
);

/** More terms than this add little to a ranking and only cost time. */
const MAX_TERMS = 32;

/** One term: a single token, or two consecutive ones (a pair of CJK characters). */
export type RankTerm = readonly string[];

/** The terms of a question, in order of first appearance, without repeats. */
export function rankTermsOf(question: string): RankTerm[] {
  const tokens = tokenize(question);
  const words: RankTerm[] = [];
  /** Single CJK characters of runs whose every pair holds a stop character: the next best. */
  const singles: RankTerm[] = [];
  const stop: RankTerm[] = [];
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i]!;
    if (!CJK_CHAR.test(token.token)) {
      (STOPWORDS.has(token.token) ? stop : words).push([token.token]);
      i += 1;
      continue;
    }
    // A run of CJK characters with nothing between them.
    let end = i + 1;
    while (end < tokens.length && CJK_CHAR.test(tokens[end]!.token) && tokens[end]!.start === tokens[end - 1]!.end)
      end += 1;
    if (end - i === 1) (CJK_STOP.has(token.token) ? stop : words).push([token.token]);
    for (let k = i; end - i > 1 && k < end; k++) if (!CJK_STOP.has(tokens[k]!.token)) singles.push([tokens[k]!.token]);
    for (let k = i; k + 1 < end; k++) {
      const pair = [tokens[k]!.token, tokens[k + 1]!.token];
      (CJK_STOP.has(pair[0]!) || CJK_STOP.has(pair[1]!) ? stop : words).push(pair);
    }
    i = end;
  }
  const seen = new Set<string>();
  return (words.length > 0 ? words : singles.length > 0 ? singles : stop)
    .filter((t) => {
      const key = t.join(' ');
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, MAX_TERMS);
}

/** FTS5 string literal: double quotes doubled (tokens hold none, but input must never become syntax). */
const fts5String = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** The FTS5 MATCH expression for passages holding any of the terms: `{body} : ("a" OR "b c")`. */
export function toFts5Any(terms: readonly RankTerm[]): string {
  return `{body} : (${terms.map((t) => fts5String(t.join(' '))).join(' OR ')})`;
}

/** tsquery lexeme literal: single quotes and backslashes escaped. */
const tsLexeme = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/**
 * The pairs of consecutive CJK characters of an index text (search-text.ts: tokens separated
 * by single spaces), each once. On PostgreSQL they are lexemes of the chunk's tsvector beside
 * the single characters, so a pair term is found by the GIN index alone: as a phrase of two
 * characters the index could only say that both occur somewhere, and every chunk holding
 * both common characters would be read to check their order. No other token is two CJK
 * characters, so a pair never meets a word. SQLite's FTS5 checks phrases in its index.
 */
export function cjkPairsOf(indexText: string): string[] {
  const tokens = indexText.split(' ');
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < tokens.length; i++)
    if (CJK_CHAR.test(tokens[i]!) && CJK_CHAR.test(tokens[i + 1]!)) pairs.add(tokens[i]! + tokens[i + 1]!);
  return [...pairs];
}

/**
 * A term as PostgreSQL looks for it: a word through to_tsquery('simple', …) as the index
 * text went through to_tsvector; a pair as its one lexeme, as stored (`pair: true`, cast).
 */
export function toTsTerm(term: RankTerm): { text: string; pair: boolean } {
  return term.length === 2 ? { text: tsLexeme(term.join('')), pair: true } : { text: tsLexeme(term[0]!), pair: false };
}
