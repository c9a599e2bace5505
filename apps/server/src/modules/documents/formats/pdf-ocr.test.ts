import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../../../../test/document-files.js';
import { makeScannedPdf } from '../../../../test/scanned-pdf.js';
import extract from '../extract-worker.js';
import { ExtractionPool } from '../extraction-pool.js';
import { type OcrTools, probeOcr } from '../ocr-tools.js';

const ENGLISH = ['The quarterly harvest report', 'Marmalade shipments doubled in spring'];
const CHINESE = ['季度收成报告', '橘子酱的出货量翻了一倍', '今年春天的天气很好', '仓库里还有很多存货'];
const squeeze = (s: string) => s.replace(/\s+/g, '');
/** Generous: a loaded machine (the whole suite at once) must not run the OCR out of time. */
const LIMITS = { threads: 1, timeMs: 180_000, memoryMb: 256 };

/**
 * Scanned PDF pages (images without a text layer) are read by OCR when the machine has
 * tesseract and pdftoppm (CI installs them: these tests fail without them rather than skip),
 * and stay empty when it has not.
 */
describe('OCR of scanned PDF pages', () => {
  let dir: string;
  let scan: string;
  let tools: OcrTools | null;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aip-ocr-'));
    tools = await probeOcr();
    scan = path.join(dir, 'scan.pdf');
    fs.writeFileSync(
      scan,
      await makeScannedPdf([
        { lines: ENGLISH, script: 'latin' },
        { lines: CHINESE, script: 'chinese' },
      ]),
    );
  });
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('finds tesseract with English and Simplified Chinese, and pdftoppm', () => {
    expect(tools).toEqual({ langs: ['chi_sim', 'eng'] });
  });

  it('the scan has no text layer: without OCR its pages are empty, and the document is ready', async () => {
    const pool = new ExtractionPool(LIMITS, Promise.resolve(null));
    try {
      const out = await pool.extract({ path: scan, format: 'pdf' }, new AbortController().signal);
      expect(out).toMatchObject({
        ok: true,
        pages: [
          { page: 1, text: '' },
          { page: 2, text: '' },
        ],
        chunks: [],
      });
    } finally {
      await pool.close();
    }
  }, 200_000);

  it('with OCR, reads the English and the Chinese page in a worker, and the words are searchable', async () => {
    const pool = new ExtractionPool(LIMITS, Promise.resolve(tools));
    try {
      const out = await pool.extract({ path: scan, format: 'pdf' }, new AbortController().signal);
      if (!out.ok) throw new Error(out.reason);
      const [english, chinese] = out.pages;
      expect(english?.text).toContain('quarterly harvest report');
      expect(english?.text).toContain('Marmalade shipments doubled');
      // The fast Chinese model Debian ships can miss a character at a line's start: most lines, whole.
      const found = CHINESE.filter((line) => squeeze(chinese?.text ?? '').includes(line));
      expect(found.length).toBeGreaterThanOrEqual(2);
      // Chinese comes out without the spaces tesseract puts between characters.
      expect(chinese?.text).not.toMatch(/\p{Script=Han} \p{Script=Han}/u);
      expect(out.chunks.map((c) => c.page)).toEqual([1, 2]);
      expect(out.tokens).toBeGreaterThan(10);
    } finally {
      await pool.close();
    }
  }, 200_000);

  it('keeps a text layer as it is, and reads no more pages than the plan allows', async () => {
    const mixed = path.join(dir, 'mixed.pdf');
    const { PDFDocument } = await import('pdf-lib');
    const joined = await PDFDocument.create();
    for (const bytes of [await makePdf(['Typed page one']), fs.readFileSync(scan)]) {
      const src = await PDFDocument.load(bytes);
      for (const p of await joined.copyPages(src, src.getPageIndices())) joined.addPage(p);
    }
    fs.writeFileSync(mixed, await joined.save());
    const plan = { langs: tools?.langs ?? [], maxPages: 1, until: Date.now() + 150_000 };
    const out = await extract({ path: mixed, format: 'pdf', ocr: plan });
    if (!out.ok) throw new Error(out.reason);
    expect(out.pages.map((p) => p.page)).toEqual([1, 2, 3]);
    expect(out.pages[0]?.text).toBe('Typed page one');
    expect(out.pages[1]?.text).toContain('harvest');
    // The cap was reached by page 2.
    expect(out.pages[2]?.text).toBe('');
  }, 200_000);

  it('leaves pages empty once the OCR time is up', async () => {
    const out = await extract({ path: scan, format: 'pdf', ocr: { langs: ['eng'], maxPages: 20, until: Date.now() } });
    expect(out).toMatchObject({ ok: true, pages: [{ text: '' }, { text: '' }] });
  });

  it('a page whose OCR fails stays empty; the document does not fail', async () => {
    const plan = { langs: ['no_such_language'], maxPages: 20, until: Date.now() + 150_000 };
    const out = await extract({ path: scan, format: 'pdf', ocr: plan });
    expect(out).toMatchObject({
      ok: true,
      pages: [
        { page: 1, text: '' },
        { page: 2, text: '' },
      ],
    });
  }, 200_000);
});
