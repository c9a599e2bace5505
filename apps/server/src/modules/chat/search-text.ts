/*
 * The one place that decides what a "word" is for message search, used for the index
 * text, for queries and for the highlights, so the three always agree on both databases.
 *
 * Neither SQLite's FTS5 tokenizers nor PostgreSQL's 'simple' configuration split Chinese,
 * Japanese or Korean text (there are no spaces between words), so every Han, kana and
 * hangul character is made a token of its own and a query for "数据库" becomes the phrase
 * 数 据 库: consecutive characters, found anywhere inside a longer run of text. Other
 * scripts keep their words (runs of letters, digits and marks), lower-cased, width-folded
 * (NFKC) and with Latin/Greek/Cyrillic accents removed, so "Cafe" finds "café".
 */

const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
const TOKEN_PATTERN = new RegExp(`[${CJK}]|(?:(?![${CJK}])[\\p{L}\\p{N}\\p{M}])+`, 'gu');
const CJK_CHAR = new RegExp(`^[${CJK}]$`, 'u');
/** Combining accents of Latin, Greek and Cyrillic letters (NFD); other scripts' marks are letters' parts. */
const ACCENTS = /[\u0300-\u036f]/g;

/** A token of a text with where it stands in that text (UTF-16 offsets, end exclusive). */
export interface Token {
  token: string;
  start: number;
  end: number;
}

/**
 * A query: phrases that must all occur (AND), each a run of consecutive tokens.
 * `prefix`: the very last token also matches longer words that start with it.
 */
export interface SearchQuery {
  phrases: string[][];
  prefix: boolean;
}

/** Anything NFKC may bring in besides letters, digits and marks ("⑴" → "(1)"). */
const NON_WORD = /[^\p{L}\p{N}\p{M}]/gu;

function normalizeToken(raw: string): string {
  const folded = raw.normalize('NFKC').toLowerCase().replace(NON_WORD, '');
  if (CJK_CHAR.test(folded)) return folded;
  return folded.normalize('NFD').replace(ACCENTS, '').normalize('NFC');
}

/** The tokens of a text in order, each normalised, with its place in the original text. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const m of text.matchAll(TOKEN_PATTERN)) {
    const token = normalizeToken(m[0]);
    // Folding may leave nothing a search could type (a lone mark).
    if (token) tokens.push({ token, start: m.index, end: m.index + m[0].length });
  }
  return tokens;
}

/** What goes into the full-text index: the tokens separated by single spaces. */
export function toIndexText(text: string): string {
  return tokenize(text)
    .map((t) => t.token)
    .join(' ');
}

/** A last word this short is matched whole: a one-letter prefix would match nearly everything. */
const PREFIX_MIN_CHARS = 2;

/**
 * A user's query: each whitespace-separated part becomes a phrase of its tokens; anything
 * that is not a letter or digit (quotes, operators, `*`, brackets) only separates tokens, so
 * no input can reach the database as query syntax. No tokens at all → no phrases.
 */
export function parseQuery(input: string): SearchQuery {
  const phrases = input
    .split(/\s+/u)
    .map((part) => tokenize(part).map((t) => t.token))
    .filter((p) => p.length > 0);
  const last = phrases.at(-1)?.at(-1) ?? '';
  const prefix = !CJK_CHAR.test(last) && Array.from(last).length >= PREFIX_MIN_CHARS;
  return { phrases, prefix };
}

/** FTS5 string literal: double quotes doubled (tokens hold none, but input must never become syntax). */
const fts5String = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** The FTS5 MATCH expression of a query, limited to the `body` column: `{body} : ("a b" AND "c" *)`. */
export function toFts5Match(q: SearchQuery): string {
  const parts = q.phrases.map((p, i) => {
    const phrase = fts5String(p.join(' '));
    return q.prefix && i === q.phrases.length - 1 ? `${phrase} *` : phrase;
  });
  return `{body} : (${parts.join(' AND ')})`;
}

/** tsquery lexeme literal: single quotes and backslashes escaped. */
const tsLexeme = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** The PostgreSQL to_tsquery text of a query: `'a' <-> 'b' & 'c':*`. */
export function toTsQuery(q: SearchQuery): string {
  return q.phrases
    .map((p, i) =>
      p
        .map((token, j) => {
          const lastToken = i === q.phrases.length - 1 && j === p.length - 1;
          return tsLexeme(token) + (q.prefix && lastToken ? ':*' : '');
        })
        .join(' <-> '),
    )
    .join(' & ');
}

/**
 * Where the query's phrases occur in a text (ranges in the text, in order of start):
 * the same token comparison the index makes, so a message found is a message marked.
 */
export function findMatches(text: string, q: SearchQuery): [number, number][] {
  const tokens = tokenize(text);
  const ranges: [number, number][] = [];
  q.phrases.forEach((phrase, pi) => {
    const prefixLast = q.prefix && pi === q.phrases.length - 1;
    for (let i = 0; i + phrase.length <= tokens.length; i++) {
      const hit = phrase.every((want, k) => {
        const have = (tokens[i + k] as Token).token;
        return prefixLast && k === phrase.length - 1 ? have.startsWith(want) : have === want;
      });
      if (hit) ranges.push([(tokens[i] as Token).start, (tokens[i + phrase.length - 1] as Token).end]);
    }
  });
  return ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}
