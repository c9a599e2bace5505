import { parse } from 'csv-parse/sync';
import { unreadable } from './extract-error.js';
import { type ExtractedText, tableText } from './extracted.js';
import { decodeUtf8 } from './text.js';

/** A CSV (or tab-separated) file as one table in text. */
export function readCsv(buf: Uint8Array): ExtractedText {
  const source = decodeUtf8(buf);
  const firstLine = source.slice(0, source.indexOf('\n') >>> 0);
  const delimiter = (firstLine.match(/\t/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? '\t' : ',';
  let rows: string[][];
  try {
    rows = parse(source, {
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      bom: true,
    });
  } catch (err) {
    throw unreadable(`CSV: ${(err as Error).message}`);
  }
  return { pages: [{ page: 1, text: tableText(rows) }], paged: false };
}
