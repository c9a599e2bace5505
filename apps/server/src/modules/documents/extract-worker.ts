import fs from 'node:fs/promises';
import type { DocumentErrorCode } from '@aiplatform/contracts';
import { toIndexText } from '../chat/search-text.js';
import { chunkPages } from './chunking.js';
import type { DocumentChunk, DocumentPage } from './document-index.repo.js';
import type { DocumentFormat } from './formats/detect-format.js';
import { ExtractError } from './formats/extract-error.js';
import type { OcrPlan } from './formats/pdf-ocr.js';
import { readDocument } from './formats/read-document.js';
import { countTokens } from './token-count.js';

export interface ExtractInput {
  /** The stored file. */
  path: string;
  format: DocumentFormat;
  /** How scanned PDF pages are read; absent or null: OCR is off and they stay empty. */
  ocr?: OcrPlan | null;
}

export type ExtractOutput =
  | { ok: true; pages: DocumentPage[]; chunks: DocumentChunk[]; tokens: number }
  | { ok: false; code: DocumentErrorCode; reason: string };

/**
 * Runs in a worker thread (extraction-pool.ts): reads one stored document and returns its
 * pages, its passages and its size in tokens, or why it could not be read. Everything slow
 * or memory-hungry about a document happens here, away from the requests.
 */
export default async function extract(input: ExtractInput): Promise<ExtractOutput> {
  try {
    const buf = new Uint8Array(await fs.readFile(input.path));
    const { pages, paged } = await readDocument(
      buf,
      input.format,
      input.ocr ? { path: input.path, plan: input.ocr } : undefined,
    );
    const chunks = chunkPages(pages, paged).map((c) => ({ ...c, index: toIndexText(c.text) }));
    const tokens = pages.reduce((sum, p) => sum + countTokens(p.text), 0);
    return { ok: true, pages, chunks, tokens };
  } catch (err) {
    if (err instanceof ExtractError) return { ok: false, code: err.code, reason: err.message };
    // A reader's own failure (a stack overflow on a hostile file, a library bug): unreadable.
    return { ok: false, code: 'FILE_UNREADABLE', reason: String((err as Error)?.message ?? err) };
  }
}
