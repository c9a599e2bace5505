import { DOCUMENT_LIMITS } from '@aiplatform/contracts';
import { Piscina } from 'piscina';
import type { ExtractInput, ExtractOutput } from './extract-worker.js';
import { type OcrTools, detectOcr } from './ocr-tools.js';

export interface ExtractionLimits {
  /** Documents read at once by this instance (one worker thread each). */
  threads: number;
  /** A document still being read after this long is abandoned: its worker is ended. */
  timeMs: number;
  /** The heap one worker may grow to; past it the worker dies and the document fails. */
  memoryMb: number;
}

export const DEFAULT_EXTRACTION_LIMITS: ExtractionLimits = { threads: 2, timeMs: 60_000, memoryMb: 512 };
/**
 * The share of a document's time its OCR may use: past it no OCR process starts, and one
 * running is killed, so the document still ends (with its later scanned pages empty)
 * rather than failing at the time limit.
 */
const OCR_TIME_SHARE = 0.75;

/**
 * The worker's entry: from the TypeScript sources (tsx, vitest) a small bootstrap that first
 * registers a TypeScript loader in the new thread; in the compiled server the worker itself.
 */
const workerEntry = import.meta.url.endsWith('.ts')
  ? new URL('./extract-worker-dev.mjs', import.meta.url).href
  : new URL('./extract-worker.js', import.meta.url).href;

/**
 * Worker threads that read documents, so a large or hostile file costs a worker, never the
 * event loop that serves requests. Started on the first document and ended with the app.
 */
export class ExtractionPool {
  private pool: Piscina | undefined;

  /**
   * `ocr`: the OCR tools scanned PDF pages are read with (null: none); by default what this
   * machine has (ocr-tools.ts). A worker runs one OCR process at a time, so there are never
   * more of them than threads.
   */
  constructor(
    private readonly limits: ExtractionLimits = DEFAULT_EXTRACTION_LIMITS,
    private readonly ocr: Promise<OcrTools | null> = detectOcr(),
  ) {}

  get threads(): number {
    return this.limits.threads;
  }

  /**
   * Reads one document in a worker. A worker that runs out of time or memory, or dies, ends
   * as a failure with a code, as does a run stopped by `signal` (the app closing).
   */
  async extract(input: ExtractInput, signal: AbortSignal): Promise<ExtractOutput> {
    const tools = await this.ocr;
    const ocr = tools && {
      langs: tools.langs,
      maxPages: DOCUMENT_LIMITS.ocrMaxPages,
      until: Date.now() + Math.floor(this.limits.timeMs * OCR_TIME_SHARE),
    };
    this.pool ??= new Piscina({
      filename: workerEntry,
      minThreads: 0,
      maxThreads: this.limits.threads,
      idleTimeout: 30_000,
      resourceLimits: { maxOldGenerationSizeMb: this.limits.memoryMb, maxYoungGenerationSizeMb: 64 },
    });
    const timeout = AbortSignal.timeout(this.limits.timeMs);
    try {
      return (await this.pool.run({ ...input, ocr }, { signal: AbortSignal.any([signal, timeout]) })) as ExtractOutput;
    } catch (err) {
      if (timeout.aborted) return { ok: false, code: 'FILE_UNREADABLE', reason: 'extraction timed out' };
      if ((err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY')
        return { ok: false, code: 'FILE_TOO_LARGE', reason: 'extraction ran out of memory' };
      throw err;
    }
  }

  /** Ends the workers (a document being read is abandoned; its lease brings it back later). */
  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.destroy();
  }
}
