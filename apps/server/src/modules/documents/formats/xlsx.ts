import ExcelJS from 'exceljs';
import { officeContainer } from './detect-format.js';
import { ExtractError, unreadable } from './extract-error.js';
import { type ExtractedText, tableText } from './extracted.js';
import { rebuildOfficeZip } from './zip-guard.js';

/**
 * An Excel workbook's text: every sheet, hidden ones too, one page per sheet in the
 * workbook's order, each its name then its cells as a table (values as Excel shows them;
 * a formula's last result).
 */
export async function readXlsx(buf: Uint8Array): Promise<ExtractedText> {
  const container = officeContainer(buf);
  if (container === 'ole') throw new ExtractError('FILE_ENCRYPTED', 'Office file in a protected container');
  if (container !== 'zip') throw unreadable('not an Excel workbook');
  const safe = rebuildOfficeZip(buf, 'xl/workbook.xml');
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(Buffer.from(safe) as unknown as ArrayBuffer);
  } catch (err) {
    throw unreadable(`Excel: ${(err as Error).message}`);
  }
  const pages = book.worksheets.map((sheet, i) => {
    const rows: string[][] = [];
    sheet.eachRow({ includeEmpty: false }, (row) => {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: true }, (cell, col) => {
        cells[col - 1] = cellText(cell);
      });
      rows.push(Array.from(cells, (c) => c ?? ''));
    });
    return { page: i + 1, text: `# ${sheet.name}\n\n${tableText(rows)}`.trim() };
  });
  if (pages.length === 0) throw unreadable('workbook without sheets');
  return { pages, paged: true };
}

function cellText(cell: ExcelJS.Cell): string {
  try {
    return cell.text ?? '';
  } catch {
    // A value the library cannot render (an odd formula result): an empty cell rather than a failed sheet.
    return '';
  }
}
