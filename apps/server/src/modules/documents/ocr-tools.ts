import { execFile } from 'node:child_process';
import type { FastifyBaseLogger } from 'fastify';

/**
 * What this machine offers for reading scanned PDF pages: the tesseract languages to read
 * with (in the order given to `-l`). OCR needs both `tesseract` and poppler's `pdftoppm`,
 * which renders a page to an image; without either it is off (null).
 */
export interface OcrTools {
  langs: string[];
}

/** The languages OCR reads, when installed: Simplified Chinese first, then English. */
const WANTED_LANGS = ['chi_sim', 'eng'];
/** A probe that has not answered in this long counts as absent. */
const PROBE_TIMEOUT_MS = 5_000;

function run(cmd: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: PROBE_TIMEOUT_MS, maxBuffer: 1024 * 1024 }, (err, stdout, stderr) =>
      // `pdftoppm -v` prints its version on stderr and used to exit non-zero for it.
      resolve(err && (err as { code?: unknown }).code === 'ENOENT' ? null : `${stdout}\n${stderr}`),
    );
  });
}

/** Asks the binaries themselves (no cache): which OCR languages are there, and can pages be rendered. */
export async function probeOcr(): Promise<OcrTools | null> {
  const [langList, poppler] = await Promise.all([run('tesseract', ['--list-langs']), run('pdftoppm', ['-v'])]);
  if (langList === null || poppler === null || !/pdftoppm/i.test(poppler)) return null;
  // The first line names the data folder; the others are one language each.
  const present = new Set(langList.split(/\r?\n/).map((l) => l.trim()));
  const langs = WANTED_LANGS.filter((l) => present.has(l));
  return langs.length > 0 ? { langs } : null;
}

let detected: Promise<OcrTools | null> | undefined;

/**
 * The OCR tools of this process, probed once on the first call (a few milliseconds) and
 * logged then with the caller's logger, so a server says once at start whether scanned
 * pages will be read.
 */
export function detectOcr(log?: FastifyBaseLogger): Promise<OcrTools | null> {
  if (!detected) {
    detected = probeOcr().catch(() => null);
    void detected.then((tools) => {
      if (tools) log?.info({ langs: tools.langs }, 'OCR of scanned PDF pages is on (tesseract, pdftoppm)');
      else log?.info('OCR of scanned PDF pages is off: tesseract with eng or chi_sim, or pdftoppm, is missing');
    });
  }
  return detected;
}
