import type { DocumentChunk, DocumentPage } from './document-index.repo.js';
import { countTokens, splitByTokens, tailTokens } from './token-count.js';

/** A passage closes once it reaches this many tokens… */
const TARGET_TOKENS = 500;
/** …and never grows past this many. */
const MAX_TOKENS = 600;
/** The end of a passage repeated at the start of the next, so a fact cut in two is whole in one of them. */
const OVERLAP_TOKENS = 60;
/** A heading starts a new passage unless the current one is still this small. */
const MIN_BEFORE_HEADING = 120;

/** A Markdown heading, or a short line in capitals or numbered like "2.1 Scope". */
const HEADING = /^(#{1,6}\s|\d+(\.\d+)*\.?\s+\S.{0,80}$)/;

interface Unit {
  text: string;
  tokens: number;
}

/** A page's lines as units of at most MAX_TOKENS; a longer line is cut by tokens. */
function unitsOf(text: string): Unit[] {
  const units: Unit[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const tokens = countTokens(line);
    if (tokens <= MAX_TOKENS) units.push({ text: line, tokens });
    else
      for (const piece of splitByTokens(line, TARGET_TOKENS)) units.push({ text: piece, tokens: countTokens(piece) });
  }
  return units;
}

/** The passages of one page, in order, each closing at a heading or past TARGET_TOKENS. */
function chunkText(text: string): string[] {
  const out: string[] = [];
  let lines: string[] = [];
  let tokens = 0;
  let fresh = 0;
  const close = () => {
    const body = lines.join('\n');
    out.push(body);
    const overlap = tailTokens(body, OVERLAP_TOKENS);
    lines = [overlap];
    tokens = countTokens(overlap);
    fresh = 0;
  };
  for (const unit of unitsOf(text)) {
    const startsSection = HEADING.test(unit.text) && tokens >= MIN_BEFORE_HEADING;
    if (fresh > 0 && (startsSection || tokens + unit.tokens > MAX_TOKENS)) {
      close();
      // A new section starts clean: the previous section's tail would only blur it.
      if (startsSection) {
        lines = [];
        tokens = 0;
      }
    }
    lines.push(unit.text);
    tokens += unit.tokens;
    fresh += 1;
    if (tokens >= TARGET_TOKENS) close();
  }
  if (fresh > 0) out.push(lines.join('\n'));
  return out;
}

/**
 * Cuts a document's pages into the passages retrieval ranks: about 400 to 600 tokens, a new
 * one at a heading, the last 60 tokens of one repeated at the start of the next. A passage
 * never spans two pages, so it cites exactly one page; `paged` false (a format without pages)
 * gives every passage the page null.
 */
export function chunkPages(pages: readonly DocumentPage[], paged: boolean): DocumentChunk[] {
  const chunks: DocumentChunk[] = [];
  for (const page of pages) {
    for (const text of chunkText(page.text)) {
      chunks.push({ page: paged ? page.page : null, seq: chunks.length, text, tokens: countTokens(text) });
    }
  }
  return chunks;
}
