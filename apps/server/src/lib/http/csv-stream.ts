import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';

/** A cell a spreadsheet would run as a formula gets a leading apostrophe instead. */
export function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/**
 * Streams records as CSV: UTF-8 with a byte-order mark (so spreadsheets read Chinese),
 * formula-looking cells neutralised, and the next record pulled only when the client
 * has taken the previous ones, so memory stays flat however long the list.
 */
export function csvStream<T extends Record<string, unknown>>(
  columns: readonly (keyof T & string)[],
  rows: AsyncIterable<T>,
): Readable {
  const csv = stringify({ header: true, bom: true, columns: [...columns], cast: { string: neutraliseFormula } });
  const source = Readable.from(rows);
  source.on('error', (err) => csv.destroy(err));
  return source.pipe(csv);
}

/** Headers of a CSV download named `<prefix>-YYYYMMDDHHmm.csv`. */
export function csvDownloadHeaders(prefix: string): Record<string, string> {
  const stamp = new Date().toISOString().slice(0, 16).replace(/[-:T]/g, '');
  return {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${prefix}-${stamp}.csv"`,
    'Cache-Control': 'no-store',
  };
}
