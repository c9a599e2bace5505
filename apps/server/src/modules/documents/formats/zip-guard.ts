import { type UnzipFileInfo, unzipSync, zipSync } from 'fflate';
import { ExtractError, unreadable } from './extract-error.js';

/** More parts than any real Office file has. */
const MAX_ENTRIES = 5_000;
/** What the parts may add up to once inflated, as their headers declare. */
const MAX_INFLATED_BYTES = 256 * 1024 * 1024;
/** One part's inflated size at most, and how far it may outgrow its compressed size. */
const MAX_PART_BYTES = 128 * 1024 * 1024;
const MAX_RATIO = 1_000;

/**
 * A document type declaration is where entity bombs and external entities live; Office XML
 * never has one (markup in text is escaped, so these bytes appear only as a declaration).
 */
const hasDoctype = (data: Uint8Array) => {
  const b = Buffer.from(data.buffer, data.byteOffset, data.length);
  return b.includes('<!DOCTYPE') || b.includes('<!ENTITY');
};

function listEntries(buf: Uint8Array): UnzipFileInfo[] {
  const entries: UnzipFileInfo[] = [];
  try {
    // The filter sees each part's header and inflates nothing.
    unzipSync(buf, {
      filter: (f) => {
        entries.push(f);
        if (entries.length > MAX_ENTRIES) throw new ExtractError('FILE_TOO_LARGE', 'too many zip entries');
        return false;
      },
    });
  } catch (err) {
    if (err instanceof ExtractError) throw err;
    throw unreadable('not a zip archive');
  }
  return entries;
}

/**
 * Checks a zip-based file before anything inflates it: how many parts, and the sizes their
 * headers declare, in total and per part against its compressed size (a decompression bomb
 * fails here, FILE_TOO_LARGE). Then inflates the parts `want` names — into buffers of the
 * declared size, so a header that lies gets a truncated part, not more memory — and refuses
 * XML with a document type declaration. Returns the wanted parts by name.
 */
export function openZip(buf: Uint8Array, want: (name: string) => boolean): Map<string, Uint8Array> {
  const entries = listEntries(buf);
  let total = 0;
  for (const e of entries) {
    total += e.originalSize;
    const bomb = e.originalSize > MAX_PART_BYTES || e.originalSize > Math.max(e.size, 1024) * MAX_RATIO;
    if (bomb || total > MAX_INFLATED_BYTES) throw new ExtractError('FILE_TOO_LARGE', 'zip inflates too far');
  }
  let parts: Record<string, Uint8Array>;
  try {
    parts = unzipSync(buf, { filter: (f) => want(f.name) });
  } catch {
    throw unreadable('zip part damaged');
  }
  const out = new Map<string, Uint8Array>();
  for (const [name, data] of Object.entries(parts)) {
    if (/\.(xml|rels)$/i.test(name) && hasDoctype(data)) throw unreadable('XML with a document type declaration');
    out.set(name, data);
  }
  return out;
}

/**
 * For formats read by a library that inflates the zip itself (Word, Excel): the same checks,
 * then a new zip of just the XML parts as they were actually inflated (stored, not
 * compressed), which is what the library is given — so it never inflates a part whose
 * header lied about its size.
 */
export function rebuildOfficeZip(buf: Uint8Array, mainPart: string): Uint8Array {
  const parts = openZip(buf, (name) => /\.(xml|rels)$/i.test(name));
  if (!parts.has(mainPart)) throw unreadable(`no ${mainPart}`);
  return zipSync(Object.fromEntries(parts), { level: 0 });
}
