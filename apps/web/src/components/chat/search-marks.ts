import { MESSAGE_SEARCH } from '@aiplatform/contracts';

/** A piece of a snippet, to be shown marked or plain. */
export interface SnippetPart {
  text: string;
  marked: boolean;
}

/**
 * Splits a snippet at the server's highlight ranges. Ranges out of bounds, overlapping or
 * out of order are clipped or skipped, so a bad range can never hide or repeat text.
 */
export function snippetParts(snippet: string, highlights: readonly (readonly [number, number])[]): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let at = 0;
  for (const [rawStart, rawEnd] of highlights) {
    const start = Math.max(at, Math.min(rawStart, snippet.length));
    const end = Math.min(rawEnd, snippet.length);
    if (end <= start) continue;
    if (start > at) parts.push({ text: snippet.slice(at, start), marked: false });
    parts.push({ text: snippet.slice(start, end), marked: true });
    at = end;
  }
  if (at < snippet.length) parts.push({ text: snippet.slice(at), marked: false });
  return parts;
}

/** Below this many characters the sidebar filters titles only. */
export const MESSAGE_SEARCH_MIN_CHARS = 2;

/** The query as the server takes it: trimmed, at most its length limit, no half character at the cut. */
export function searchQueryOf(input: string): string {
  let q = input.trim().slice(0, MESSAGE_SEARCH.queryMax);
  if (/[\uD800-\uDBFF]$/.test(q)) q = q.slice(0, -1);
  return q.trim();
}

/** Whether the text is long enough to search messages for. */
export const searchesMessages = (q: string) => Array.from(q).length >= MESSAGE_SEARCH_MIN_CHARS;
