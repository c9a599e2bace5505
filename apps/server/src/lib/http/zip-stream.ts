import { Readable } from 'node:stream';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';

/** One file of a streamed ZIP: its path inside the archive and its bytes, whole or in chunks. */
export interface ZipEntry {
  name: string;
  data: Uint8Array | string | AsyncIterable<Uint8Array | string>;
  /**
   * Deflated when true (text); stored as is otherwise: images, PDFs and office files are
   * compressed already, and deflating them again only costs the event loop.
   */
  compress: boolean;
  modified?: Date;
}

const encoder = new TextEncoder();
const bytesOf = (chunk: Uint8Array | string): Uint8Array => (typeof chunk === 'string' ? encoder.encode(chunk) : chunk);

async function* chunksOf(data: ZipEntry['data']): AsyncGenerator<Uint8Array> {
  if (typeof data === 'string' || data instanceof Uint8Array) {
    yield bytesOf(data);
    return;
  }
  for await (const chunk of data) yield bytesOf(chunk);
}

/**
 * The archive's bytes as the entries are read: one entry at a time and, inside an entry, one
 * chunk at a time, each handed on before the next is read. Pulled by `Readable.from`, so a
 * slow client holds the reading back and memory stays flat however large the archive.
 */
async function* zipChunks(entries: AsyncIterable<ZipEntry>): AsyncGenerator<Uint8Array> {
  const ready: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((err, chunk) => {
    if (err) failure = err;
    else ready.push(chunk);
  });
  const drain = function* () {
    if (failure) throw failure;
    while (ready.length > 0) yield ready.shift()!;
  };
  for await (const entry of entries) {
    const file = entry.compress ? new ZipDeflate(entry.name, { level: 6 }) : new ZipPassThrough(entry.name);
    file.mtime = entry.modified ?? new Date();
    zip.add(file);
    for await (const chunk of chunksOf(entry.data)) {
      file.push(chunk);
      yield* drain();
    }
    file.push(new Uint8Array(0), true);
    yield* drain();
  }
  zip.end();
  yield* drain();
}

/** A ZIP archive of the entries as a stream, built while it is sent (never whole in memory). */
export function zipStream(entries: AsyncIterable<ZipEntry>): Readable {
  return Readable.from(zipChunks(entries), { objectMode: false });
}

/** Headers of a ZIP download named `<prefix>-YYYYMMDD.zip` (the day it was made, UTC). */
export function zipDownloadHeaders(prefix: string, now: Date): Record<string, string> {
  const day = now.toISOString().slice(0, 10).replace(/-/g, '');
  return {
    'Content-Type': 'application/zip',
    'Content-Disposition': `attachment; filename="${prefix}-${day}.zip"`,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  };
}
