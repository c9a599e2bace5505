import type { FileInfo } from '@aiplatform/contracts';
import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import ExcelJS from 'exceljs';
import { strToU8, zipSync } from 'fflate';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import PptxGenJS from 'pptxgenjs';
import { type TestApp, multipartFile } from './test-app.js';

/*
 * Small real documents made in the tests, hostile ones too, and the upload helpers built on
 * them. pdf-lib's standard font writes Latin text only: keep PDF text to ASCII.
 */

/** A PDF with one page per entry; `\n` starts a new line. */
export async function makePdf(pages: readonly string[]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = pdf.addPage([595, 842]);
    text.split('\n').forEach((line, i) => page.drawText(line, { x: 50, y: 790 - i * 16, size: 11, font }));
  }
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

/**
 * A PDF protected by a password (pdf-lib cannot encrypt): a real PDF whose trailer names a
 * standard security handler dictionary, so a reader asks for the user password.
 */
export async function makeEncryptedPdf(): Promise<Buffer> {
  const source = (await makePdf(['secret contents'])).toString('latin1');
  const hex32 = (c: string) => `<${c.repeat(64)}>`;
  const encrypt = `/Encrypt << /Filter /Standard /V 1 /R 2 /O ${hex32('a')} /U ${hex32('b')} /P -4 >> /ID [${hex32('c').slice(0, 34)}> ${hex32('c').slice(0, 34)}>]`;
  return Buffer.from(source.replace(/trailer\s*<</, `trailer\n<< ${encrypt}`), 'latin1');
}

/** A Word document: `# ` starts a heading, every other entry is a paragraph. */
export async function makeDocx(paragraphs: readonly string[]): Promise<Buffer> {
  const children = paragraphs.map((p) =>
    p.startsWith('# ') ? new Paragraph({ text: p.slice(2), heading: HeadingLevel.HEADING_1 }) : new Paragraph(p),
  );
  return Packer.toBuffer(new Document({ sections: [{ children }] }));
}

/** An Excel workbook with these sheets, in order (name → rows). */
export async function makeXlsx(sheets: Record<string, (string | number)[][]>): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) book.addWorksheet(name).addRows(rows);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** A PowerPoint deck with one slide per entry (its text in one box). */
export async function makePptx(slides: readonly string[]): Promise<Buffer> {
  const deck = new PptxGenJS();
  for (const text of slides) deck.addSlide().addText(text, { x: 0.5, y: 0.5, w: 9, h: 4 });
  return Buffer.from((await deck.write({ outputType: 'nodebuffer' })) as Uint8Array);
}

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"></Types>';

/** A .docx whose document part declares entities that expand a billion times (the "billion laughs"). */
export function makeEntityBombDocx(): Buffer {
  const entities = Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('');
  const xml = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY l0 "lol">${entities}]><w:document><w:body><w:p><w:r><w:t>&l9;</w:t></w:r></w:p></w:body></w:document>`;
  return Buffer.from(zipSync({ '[Content_Types].xml': strToU8(CONTENT_TYPES), 'word/document.xml': strToU8(xml) }));
}

/** A .pptx whose slide nests elements far deeper than any real slide. */
export async function makeDeepPptx(): Promise<Buffer> {
  const { unzipSync } = await import('fflate');
  const parts = unzipSync(new Uint8Array(await makePptx(['deep'])));
  const depth = 20_000;
  parts['ppt/slides/slide1.xml'] = strToU8(`<?xml version="1.0"?>${'<a:p>'.repeat(depth)}${'</a:p>'.repeat(depth)}`);
  return Buffer.from(zipSync(parts));
}

/** Writes `size` as the inflated size of every part, in the local and the central headers. */
function declareSizes(zip: Buffer, size: number): Buffer {
  for (let i = 0; i + 4 <= zip.length; i++) {
    const sig = zip.readUInt32LE(i);
    if (sig === 0x04034b50) zip.writeUInt32LE(size, i + 22);
    if (sig === 0x02014b50) zip.writeUInt32LE(size, i + 24);
  }
  return zip;
}

/** A .docx whose zip headers declare a part inflating to 4 GB (a decompression bomb, as its headers show it). */
export function makeZipBombDocx(): Buffer {
  const parts = { '[Content_Types].xml': strToU8(CONTENT_TYPES), 'word/document.xml': strToU8('<w:document/>') };
  return declareSizes(Buffer.from(zipSync(parts)), 0xfffffff0);
}

/** A .docx whose headers understate its parts: 8 MB of XML declared as 2 KB (a bomb that hides). */
export function makeUnderstatedZipDocx(): Buffer {
  const body = `<w:document><w:body><w:p><w:r><w:t>${'a'.repeat(8 * 1024 * 1024)}</w:t></w:r></w:p></w:body></w:document>`;
  const parts = { '[Content_Types].xml': strToU8(CONTENT_TYPES), 'word/document.xml': strToU8(body) };
  return declareSizes(Buffer.from(zipSync(parts)), 2048);
}

/** What Office writes for a password-protected document: a compound file, whatever the name says. */
export function makeEncryptedOffice(): Buffer {
  return Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(4096, 1)]);
}

/** POST /api/chat/files as `token` (multipart field `file`). */
export function uploadDocument(
  t: TestApp,
  token: string,
  name: string,
  content: Buffer,
  opts: { lang?: string; contentType?: string } = {},
) {
  const { payload, headers } = multipartFile('file', name, opts.contentType ?? 'application/octet-stream', content);
  return t.request<FileInfo>('POST', '/api/chat/files', {
    payload,
    headers,
    token,
    ...(opts.lang ? { lang: opts.lang } : {}),
  });
}

/** Waits until the file is no longer processing (ready or failed) and returns it as its owner sees it. */
export async function waitReady(t: TestApp, token: string, id: string, timeoutMs = 60_000): Promise<FileInfo> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.get<FileInfo>(`/api/chat/files/${id}`, token);
    if (res.status !== 200) throw new Error(`file ${id}: ${res.status} ${res.text}`);
    if (res.body.data.status !== 'processing') return res.body.data;
    if (Date.now() > until) throw new Error(`file ${id} still processing`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Uploads a document and waits for its extraction to end; throws unless the upload is accepted. */
export async function uploadReady(t: TestApp, token: string, name: string, content: Buffer): Promise<FileInfo> {
  const res = await uploadDocument(t, token, name, content);
  if (res.status !== 201) throw new Error(`upload of ${name}: ${res.status} ${res.text}`);
  return waitReady(t, token, res.body.data.id);
}
