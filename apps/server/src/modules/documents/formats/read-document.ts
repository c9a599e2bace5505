import type { DocumentFormat } from './detect-format.js';
import type { ExtractedText } from './extracted.js';
import type { OcrPlan } from './pdf-ocr.js';
import { readCsv } from './csv.js';
import { readDocx } from './docx.js';
import { readPdf } from './pdf.js';
import { readPptx } from './pptx.js';
import { readHtml, readText } from './text.js';
import { readXlsx } from './xlsx.js';

/**
 * The text of a document of a known format; throws ExtractError when it cannot be read as one.
 * `ocr` (the stored file's path and how to read scans) applies to PDFs only.
 */
export function readDocument(
  buf: Uint8Array,
  format: DocumentFormat,
  ocr?: { path: string; plan: OcrPlan },
): Promise<ExtractedText> | ExtractedText {
  switch (format) {
    case 'pdf':
      return readPdf(buf, ocr);
    case 'docx':
      return readDocx(buf);
    case 'xlsx':
      return readXlsx(buf);
    case 'pptx':
      return readPptx(buf);
    case 'csv':
      return readCsv(buf);
    case 'html':
      return readHtml(buf);
    case 'text':
      return readText(buf);
  }
}
