/** The document formats read, each by its own reader. */
export type DocumentFormat = 'pdf' | 'docx' | 'xlsx' | 'pptx' | 'csv' | 'html' | 'text';

/** What a format is stored and served as. */
export const FORMAT_MIME: Record<DocumentFormat, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  csv: 'text/csv',
  html: 'text/html',
  text: 'text/plain',
};

const BY_EXTENSION: Record<string, DocumentFormat> = {
  pdf: 'pdf',
  docx: 'docx',
  xlsx: 'xlsx',
  pptx: 'pptx',
  csv: 'csv',
  tsv: 'csv',
  html: 'html',
  htm: 'html',
};

/** Plain UTF-8 text: prose, Markdown, data and source code. */
const TEXT_EXTENSIONS = new Set(
  (
    'txt text md markdown mdx rst adoc log json jsonl ndjson yaml yml toml ini cfg conf env xml svg ' +
    'js mjs cjs jsx ts mts cts tsx vue svelte css scss sass less py pyi rb php java kt kts scala groovy ' +
    'go rs c h cc cpp cxx hpp hh cs fs swift m mm dart lua pl pm r jl sh bash zsh fish ps1 bat cmd ' +
    'sql graphql gql proto tf hcl dockerfile makefile cmake gradle properties tex bib'
  ).split(' '),
);

/** Mime types of the text formats worth naming; the rest are text/plain. */
const TEXT_MIME: Record<string, string> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  json: 'application/json',
  xml: 'application/xml',
};

function extensionOf(name: string): string {
  const base = name.toLowerCase().split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  // "Dockerfile", "Makefile": a known name without an extension.
  return dot < 0 ? base : base.slice(dot + 1);
}

/**
 * The format a file's name claims, with the type it is stored as; undefined for a name that
 * is no document we read. Only the name is looked at here: whether the content agrees is
 * checked when the text is extracted (a file that lies fails then).
 */
export function formatOfName(name: string): { format: DocumentFormat; mime: string } | undefined {
  const ext = extensionOf(name);
  const format = BY_EXTENSION[ext];
  if (format) return { format, mime: FORMAT_MIME[format] };
  if (TEXT_EXTENSIONS.has(ext)) return { format: 'text', mime: TEXT_MIME[ext] ?? 'text/plain' };
  return undefined;
}

/** The container an Office file really is, by its first bytes. */
export function officeContainer(buf: Uint8Array): 'zip' | 'ole' | undefined {
  if (buf[0] === 0x50 && buf[1] === 0x4b && buf[2] === 0x03 && buf[3] === 0x04) return 'zip';
  // Compound File Binary: what Office writes for a password-protected document.
  const ole = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
  if (ole.every((b, i) => buf[i] === b)) return 'ole';
  return undefined;
}

/** A PDF starts with "%PDF-" (some writers put a few bytes before it, so the first kilobyte is searched). */
export function looksLikePdf(buf: Uint8Array): boolean {
  return Buffer.from(buf.buffer, buf.byteOffset, Math.min(buf.length, 1024)).includes('%PDF-');
}
