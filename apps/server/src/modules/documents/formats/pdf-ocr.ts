import { execFile } from 'node:child_process';
import type { DocumentPage } from '../document-index.repo.js';
import { tidy } from './extracted.js';

/** How one document's scanned pages are read (made by extraction-pool.ts, used in the worker). */
export interface OcrPlan {
  /** Tesseract languages, as given to `-l` joined with `+`. */
  langs: string[];
  /** Pages read by OCR at most; later empty pages stay empty. */
  maxPages: number;
  /** Epoch ms after which no OCR process runs: the rest of the document's time is for the rest. */
  until: number;
}

/** A page with fewer characters than this (not counting spaces) in its text layer is read as a scan. */
export const OCR_MIN_CHARS = 5;
/** Time one page's rendering or reading may take. */
const STEP_TIMEOUT_MS = 30_000;
/** Less time than this left: not worth starting another page. */
const MIN_STEP_MS = 1_000;
/**
 * 200 dpi suits text of ordinary size; the rendered area is held to 4,000 pixels a side
 * (50 cm at that resolution), so a page declared huge cannot make a huge image.
 */
const RENDER_ARGS = ['-r', '200', '-W', '4000', '-H', '4000', '-gray', '-png', '-singlefile'];
const IMAGE_MAX_BYTES = 64 * 1024 * 1024;
const TEXT_MAX_BYTES = 4 * 1024 * 1024;

const visibleChars = (text: string) => text.replace(/\s+/g, '').length;

/** Tesseract puts spaces between Chinese characters; Chinese has none. */
const joinHan = (text: string) => text.replace(/(?<=\p{Script=Han})[^\S\n]+(?=\p{Script=Han})/gu, '');

/** Runs a binary to its end within `timeoutMs` (then it is killed), feeding it `input`. */
function run(cmd: string, args: string[], timeoutMs: number, maxBuffer: number, input?: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      cmd,
      args,
      {
        encoding: 'buffer',
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer,
        // One core per OCR process: the pool's worker count is what bounds the load.
        env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      },
      (err, stdout) => (err ? reject(new Error(`${cmd}: ${err.message}`)) : resolve(stdout)),
    );
    // A process that dies early closes its input: the error it gives is reported above.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input);
  });
}

/**
 * One PDF page read by OCR: rendered by `pdftoppm` to a PNG on a pipe (nothing is written to
 * disk, so an ended worker leaves no file behind), then read by `tesseract` from its input.
 */
async function ocrPage(pdfPath: string, page: number, plan: OcrPlan): Promise<string> {
  const budget = () => Math.max(1, Math.min(STEP_TIMEOUT_MS, plan.until - Date.now()));
  const n = String(page);
  const png = await run('pdftoppm', ['-f', n, '-l', n, ...RENDER_ARGS, pdfPath], budget(), IMAGE_MAX_BYTES);
  if (budget() < MIN_STEP_MS) return '';
  const text = await run('tesseract', ['stdin', 'stdout', '-l', plan.langs.join('+')], budget(), TEXT_MAX_BYTES, png);
  return tidy(joinHan(text.toString('utf8')));
}

/**
 * The document's pages with those whose text layer is (nearly) empty read by OCR, in page
 * order, one process at a time, while `plan` allows: at most `maxPages` pages, none started
 * past `until`. A page whose OCR fails, or finds less than its text layer had, keeps its
 * text layer; the document never fails because of OCR.
 */
export async function ocrEmptyPages(pages: DocumentPage[], pdfPath: string, plan: OcrPlan): Promise<DocumentPage[]> {
  let left = plan.maxPages;
  const out: DocumentPage[] = [];
  for (const p of pages) {
    const had = visibleChars(p.text);
    if (had >= OCR_MIN_CHARS || left <= 0 || plan.until - Date.now() < MIN_STEP_MS) {
      out.push(p);
      continue;
    }
    left--;
    const text = await ocrPage(pdfPath, p.page, plan).catch(() => '');
    out.push(visibleChars(text) > had ? { page: p.page, text } : p);
  }
  return out;
}
