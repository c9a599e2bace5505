import type { FileStatus } from '@aiplatform/contracts';
import { estimateTokens } from '../src/ai/tokens.js';
import { insertDocument as insertIndexedDocument } from './document-fixtures.js';
import type { TestApp } from './test-app.js';

/**
 * A document as extraction would leave it, for chat tests: each string a page with one
 * passage (tokens as the chat estimates them); a single page is plain text with no page
 * number. `tokens` overrides the document's total when a test needs an exact number.
 */
export function insertDocument(
  t: TestApp,
  userId: number,
  opts: { name: string; pages: string[]; status?: FileStatus; errorCode?: string; tokens?: number; paged?: boolean },
): Promise<string> {
  const paged = opts.paged ?? opts.pages.length > 1;
  const pages = opts.pages.map((text, i) => ({ page: i + 1, text }));
  const chunks = opts.pages.map((text, i) => ({
    page: paged ? i + 1 : null,
    seq: i,
    text,
    tokens: estimateTokens(text),
  }));
  return insertIndexedDocument(t.db, userId, opts.name, pages, chunks, {
    ...opts,
    mime: paged ? 'application/pdf' : 'text/plain',
  });
}
