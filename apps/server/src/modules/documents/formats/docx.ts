import mammoth from 'mammoth';
import { officeContainer } from './detect-format.js';
import { ExtractError, unreadable } from './extract-error.js';
import { type ExtractedText, singlePage } from './extracted.js';
import { rebuildOfficeZip } from './zip-guard.js';

/**
 * A Word document's text (no pages: Word lays them out only when printing). Paragraphs,
 * headings included, each on its own line.
 */
export async function readDocx(buf: Uint8Array): Promise<ExtractedText> {
  const container = officeContainer(buf);
  if (container === 'ole') throw new ExtractError('FILE_ENCRYPTED', 'Office file in a protected container');
  if (container !== 'zip') throw unreadable('not a Word document');
  const safe = rebuildOfficeZip(buf, 'word/document.xml');
  try {
    const { value } = await mammoth.extractRawText({ buffer: Buffer.from(safe) });
    return singlePage(value);
  } catch (err) {
    throw unreadable(`Word: ${(err as Error).message}`);
  }
}
