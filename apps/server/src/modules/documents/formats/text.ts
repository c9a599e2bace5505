import { convert } from 'html-to-text';
import { unreadable } from './extract-error.js';
import { type ExtractedText, singlePage } from './extracted.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Bytes as UTF-8 text (a byte-order mark dropped). A NUL byte or a sequence that is not
 * UTF-8 means the file is binary, whatever its name says: FILE_UNREADABLE.
 */
export function decodeUtf8(buf: Uint8Array): string {
  if (buf.includes(0)) throw unreadable('binary content (NUL bytes)');
  try {
    return utf8.decode(buf).replace(/^\uFEFF/, '');
  } catch {
    throw unreadable('not UTF-8');
  }
}

/** Plain text, Markdown, JSON or source code, as it is. */
export function readText(buf: Uint8Array): ExtractedText {
  const text = decodeUtf8(buf).replace(/\r\n?/g, '\n');
  // Code keeps its indentation: only trailing blanks go.
  return { pages: [{ page: 1, text: text.replace(/[ \t]+$/gm, '').trim() }], paged: false };
}

/** An HTML page's readable text: headings and paragraphs as lines, links without their addresses. */
export function readHtml(buf: Uint8Array): ExtractedText {
  const html = decodeUtf8(buf);
  const text = convert(html, {
    wordwrap: false,
    selectors: [
      { selector: 'a', options: { ignoreHref: true } },
      { selector: 'img', format: 'skip' },
      { selector: 'h1', options: { uppercase: false } },
      { selector: 'h2', options: { uppercase: false } },
      { selector: 'h3', options: { uppercase: false } },
      { selector: 'h4', options: { uppercase: false } },
      { selector: 'h5', options: { uppercase: false } },
      { selector: 'h6', options: { uppercase: false } },
      { selector: 'table', format: 'dataTable' },
    ],
  });
  return singlePage(text);
}
