import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, PDFName, PDFString, StandardFonts } from 'pdf-lib';

/*
 * Scanned PDFs made in the tests the way a scanner makes them: each page is only a picture
 * of text, with no text layer. A text PDF is made first, rendered to PNG images by poppler's
 * `pdftoppm`, and each image becomes the only content of a page of a new PDF.
 */

/** One page of lines: Latin (pdf-lib's standard font) or Chinese (a CJK font the renderer supplies). */
export type ScanPage = { lines: string[]; script: 'latin' | 'chinese' };

/**
 * A Chinese font that is named but not embedded (the standard Adobe one for Simplified
 * Chinese, text as UCS-2): pdf-lib embeds no CJK font without fontkit, and poppler draws the
 * text with an installed one (Debian `fonts-noto-cjk`).
 */
function chineseFont(pdf: PDFDocument) {
  const ctx = pdf.context;
  const descriptor = ctx.obj({
    Type: 'FontDescriptor',
    FontName: 'STSong-Light',
    Flags: 6,
    FontBBox: [0, -200, 1000, 900],
    ItalicAngle: 0,
    Ascent: 880,
    Descent: -120,
    CapHeight: 880,
    StemV: 93,
  });
  const cidFont = ctx.obj({
    Type: 'Font',
    Subtype: 'CIDFontType0',
    BaseFont: 'STSong-Light',
    CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('GB1'), Supplement: 2 },
    FontDescriptor: ctx.register(descriptor),
  });
  return ctx.register(
    ctx.obj({
      Type: 'Font',
      Subtype: 'Type0',
      BaseFont: 'STSong-Light',
      Encoding: 'UniGB-UCS2-H',
      DescendantFonts: [ctx.register(cidFont)],
    }),
  );
}

/** A PDF with text pages (large type, as a scan of a printed page would be legible). */
async function makeTextPdf(pages: readonly ScanPage[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const latin = await pdf.embedFont(StandardFonts.Helvetica);
  for (const { lines, script } of pages) {
    const page = pdf.addPage([595, 842]);
    if (script === 'latin') {
      lines.forEach((line, i) => page.drawText(line, { x: 60, y: 760 - i * 24, size: 14, font: latin }));
      continue;
    }
    page.node.setFontDictionary(PDFName.of('FZh'), chineseFont(pdf));
    const ucs2 = (s: string) => Buffer.from(s, 'utf16le').swap16().toString('hex');
    const ops = `BT /FZh 16 Tf 60 760 Td 24 TL ${lines.map((l) => `<${ucs2(l)}> Tj T*`).join(' ')} ET`;
    page.node.addContentStream(pdf.context.register(pdf.context.flateStream(ops)));
  }
  return pdf.save();
}

/** A PDF whose pages are only images of these pages' text, as a scanner makes it. */
export async function makeScannedPdf(pages: readonly ScanPage[]): Promise<Buffer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aip-scan-'));
  try {
    const source = path.join(dir, 'text.pdf');
    fs.writeFileSync(source, await makeTextPdf(pages));
    execFileSync('pdftoppm', ['-r', '200', '-gray', '-png', source, path.join(dir, 'page')]);
    const images = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.png'))
      .sort();
    const scan = await PDFDocument.create();
    for (const file of images) {
      const png = await scan.embedPng(fs.readFileSync(path.join(dir, file)));
      scan.addPage([595, 842]).drawImage(png, { x: 0, y: 0, width: 595, height: 842 });
    }
    return Buffer.from(await scan.save());
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
