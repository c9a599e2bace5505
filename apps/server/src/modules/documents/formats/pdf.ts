import { extractText, getDocumentProxy } from 'unpdf';
import { ExtractError, unreadable } from './extract-error.js';
import { type ExtractedText, tidy } from './extracted.js';
import { looksLikePdf } from './detect-format.js';
import { type OcrPlan, ocrEmptyPages } from './pdf-ocr.js';

/** The trailer names an /Encrypt dictionary: the document is protected (with a password or not). */
const isEncrypted = (buf: Uint8Array) => Buffer.from(buf.buffer, buf.byteOffset, buf.length).includes('/Encrypt');

/** No code compiled from a font (a hostile font cannot run script); no warnings printed. */
const READER_OPTIONS = { isEvalSupported: false, verbosity: 0 } as Parameters<typeof getDocumentProxy>[1];

/**
 * A PDF's text, one page per PDF page. A page that is only a scan is read by OCR when `ocr`
 * says how (the stored file's path and the plan); otherwise, or when OCR finds nothing, it
 * stays an empty page: its number still counts. A password-protected file is
 * FILE_ENCRYPTED; one the reader cannot parse is FILE_UNREADABLE.
 */
export async function readPdf(buf: Uint8Array, ocr?: { path: string; plan: OcrPlan }): Promise<ExtractedText> {
  if (!looksLikePdf(buf)) throw unreadable('not a PDF');
  let text: string[];
  try {
    // A copy: the reader takes ownership of (detaches) the bytes it is given.
    const pdf = await getDocumentProxy(new Uint8Array(buf), READER_OPTIONS);
    try {
      ({ text } = await extractText(pdf, { mergePages: false }));
    } finally {
      await (pdf as unknown as { loadingTask: { destroy(): Promise<void> } }).loadingTask.destroy();
    }
  } catch (err) {
    if ((err as { name?: string }).name === 'PasswordException' || isEncrypted(buf))
      throw new ExtractError('FILE_ENCRYPTED', 'PDF is encrypted');
    throw unreadable(`PDF: ${(err as Error).message}`);
  }
  const pages = text.map((t, i) => ({ page: i + 1, text: tidy(t) }));
  return { pages: ocr ? await ocrEmptyPages(pages, ocr.path, ocr.plan) : pages, paged: true };
}
