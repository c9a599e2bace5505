/*
 * Where a citation's snippet lies in a page's text. A snippet is the start of a passage,
 * possibly cut short and with its whitespace folded, so the search folds whitespace too and
 * falls back to the snippet's opening words.
 */

export interface TextRange {
  start: number;
  end: number;
}

const OPENING_CHARS = 48;

/** The text with each run of whitespace as one space, and where each folded character came from. */
function fold(text: string): { folded: string; origin: number[] } {
  let folded = '';
  const origin: number[] = [];
  let inSpace = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] ?? '';
    if (/\s/.test(char)) {
      if (inSpace) continue;
      inSpace = true;
      folded += ' ';
    } else {
      inSpace = false;
      folded += char;
    }
    origin.push(i);
  }
  return { folded, origin };
}

const trimEllipsis = (snippet: string) =>
  snippet.replace(/(\u2026|\.\.\.)\s*$/u, '').replace(/^\s*(\u2026|\.\.\.)/u, '');

/** The range of `text` the snippet covers, or null when it is not found. */
export function findPassage(text: string, snippet: string): TextRange | null {
  const wanted = fold(trimEllipsis(snippet).trim()).folded;
  if (!wanted) return null;
  const { folded, origin } = fold(text);
  const haystack = folded.toLowerCase();
  for (const probe of [wanted, wanted.slice(0, OPENING_CHARS)]) {
    const at = haystack.indexOf(probe.toLowerCase());
    if (at < 0) continue;
    const last = origin[at + probe.length - 1];
    const first = origin[at];
    if (first === undefined || last === undefined) continue;
    return { start: first, end: last + 1 };
  }
  return null;
}

/** The page to show a citation at: its own page, else the first page holding the snippet. */
export function targetPage(
  pages: readonly { page: number; text: string }[],
  page: number | null,
  snippet: string | undefined,
): number | null {
  if (page !== null && pages.some((p) => p.page === page)) return page;
  if (!snippet) return null;
  return pages.find((p) => findPassage(p.text, snippet) !== null)?.page ?? null;
}
