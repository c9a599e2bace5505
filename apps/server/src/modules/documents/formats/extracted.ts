import type { DocumentPage } from '../document-index.repo.js';

/** A document's text: its pages (PDF page, slide, sheet) or, for a format without pages, one page. */
export interface ExtractedText {
  pages: DocumentPage[];
  /** False for a format without pages: passages then cite no page. */
  paged: boolean;
}

/** Whitespace runs in a line collapsed, line breaks kept, at most one blank line in a row. */
export function tidy(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** One page holding the whole text (formats without pages). */
export const singlePage = (text: string): ExtractedText => ({ pages: [{ page: 1, text: tidy(text) }], paged: false });

/** Rows as a table in text: `| a | b |`, a rule under the first row, pipes in cells escaped. */
export function tableText(rows: readonly (readonly string[])[]): string {
  const width = Math.max(0, ...rows.map((r) => r.length));
  const line = (r: readonly string[]) =>
    `| ${Array.from({ length: width }, (_, i) => (r[i] ?? '').replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim()).join(' | ')} |`;
  const lines = rows.map(line);
  if (lines.length > 1) lines.splice(1, 0, `|${' --- |'.repeat(width)}`);
  return lines.join('\n');
}
