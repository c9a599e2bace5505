import { plainText } from './auto-title.js';
import { type SearchQuery, findMatches } from './search-text.js';

/** Longest snippet, in UTF-16 units as JavaScript counts them (the ellipses included). */
export const SNIPPET_MAX_CHARS = 160;
/** Text kept before the first hit, so it reads in context and the hit stays in the first lines shown. */
const LEAD_CHARS = 30;
/** How far a cut may move to land between words rather than inside one. */
const WORD_SLACK = 20;
const ELLIPSIS = '…';

export interface Snippet {
  snippet: string;
  /** [start, end) ranges in `snippet` to mark, in order, not overlapping. */
  highlights: [number, number][];
}

const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** Where to start the window: a little before the first hit, not inside a word when avoidable. */
function windowStart(text: string, firstHit: number): number {
  let start = Math.min(Math.max(0, firstHit - LEAD_CHARS), text.length - SNIPPET_MAX_CHARS + 1);
  if (start > 0 && /\S/.test(text[start - 1] ?? '')) {
    const space = text.indexOf(' ', start);
    if (space !== -1 && space < firstHit && space - start <= WORD_SLACK) start = space + 1;
  }
  if (isLowSurrogate(text.charCodeAt(start))) start += 1;
  return start;
}

/** Where to end it: within the length budget, at a space when one is near, never past a hit's start. */
function windowEnd(text: string, start: number, firstHitEnd: number): number {
  let end = start + SNIPPET_MAX_CHARS - (start > 0 ? 1 : 0) - 1;
  if (end >= text.length) return text.length;
  const space = text.lastIndexOf(' ', end);
  if (space > firstHitEnd && end - space <= WORD_SLACK) end = space;
  if (isLowSurrogate(text.charCodeAt(end))) end -= 1;
  return end;
}

function merge(ranges: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const [s, e] of ranges) {
    const last = out.at(-1);
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

/**
 * A plain-text excerpt of a message around its first hit, with the hits inside it to mark.
 * Computed here rather than by the database, so SQLite and PostgreSQL answer the same.
 */
export function buildSnippet(content: string, query: SearchQuery): Snippet {
  const text = plainText(content);
  const matches = findMatches(text, query);
  if (text.length <= SNIPPET_MAX_CHARS) return { snippet: text, highlights: merge(matches) };

  const first = matches[0] ?? [0, 0];
  const start = windowStart(text, first[0]);
  const end = windowEnd(text, start, first[1]);
  const lead = start > 0 ? ELLIPSIS : '';
  const body = text.slice(start, end).trimEnd();
  const snippet = lead + body + (end < text.length ? ELLIPSIS : '');
  const shift = lead.length - start;
  const inside = matches.filter(([s, e]) => s >= start && e <= start + body.length);
  return { snippet, highlights: merge(inside.map(([s, e]): [number, number] => [s + shift, e + shift])) };
}
