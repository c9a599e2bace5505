import {
  DOCUMENT_LIMITS,
  type DocumentPlan,
  type FileInfo,
  MAX_IMAGES_PER_MESSAGE,
  type MessageFile,
} from '@aiplatform/contracts';
import { IMAGE_TYPES } from '../chat/image-check';

/*
 * The composer's attachments: images and documents in one list (the order sent), each kind
 * with its own limit. A document's state comes from its FileInfo, polled while it is read.
 */

export const isDocument = (file: Pick<MessageFile, 'kind'>): boolean => file.kind === 'document';
export const imagesOf = (files: readonly MessageFile[]): MessageFile[] => files.filter((f) => !isDocument(f));
export const documentsOf = (files: readonly MessageFile[]): MessageFile[] => files.filter(isDocument);

/** The extensions the attach button offers for documents (the server decides by content). */
export const DOCUMENT_EXTENSIONS = [
  '.pdf',
  '.docx',
  '.xlsx',
  '.csv',
  '.pptx',
  '.txt',
  '.md',
  '.markdown',
  '.html',
  '.htm',
  '.json',
  '.xml',
  '.yaml',
  '.yml',
  '.js',
  '.ts',
  '.tsx',
  '.jsx',
  '.py',
  '.java',
  '.go',
  '.rs',
  '.c',
  '.h',
  '.cpp',
  '.cs',
  '.rb',
  '.php',
  '.sh',
  '.sql',
] as const;

/** The `accept` of the attach button: documents, and images when the model takes them. */
export function attachAccept(imagesAllowed: boolean): string {
  return [...DOCUMENT_EXTENSIONS, ...(imagesAllowed ? IMAGE_TYPES : [])].join(',');
}

/** An image by its type (or, with none reported, its extension); everything else goes as a document. */
export function isImageFile(file: { name: string; type: string }): boolean {
  if (file.type) return (IMAGE_TYPES as readonly string[]).includes(file.type);
  return /\.(jpe?g|png|gif|webp)$/i.test(file.name);
}

/** Picked or dropped files split into images and documents, in the order given. */
export function splitPicked<T extends { name: string; type: string }>(
  files: readonly T[],
): { images: T[]; documents: T[] } {
  return { images: files.filter(isImageFile), documents: files.filter((f) => !isImageFile(f)) };
}

/** How many more documents the composer takes beside the attached ones. */
export const documentRoom = (files: readonly MessageFile[]): number =>
  Math.max(0, DOCUMENT_LIMITS.maxDocumentsPerMessage - documentsOf(files).length);

/**
 * The list with the new attachments appended in order: each id once, images and documents
 * each within their own limit.
 */
export function withAttachments(list: readonly MessageFile[], added: readonly MessageFile[]): MessageFile[] {
  const out = [...list];
  for (const file of added) {
    if (out.some((f) => f.id === file.id)) continue;
    const sameKind = out.filter((f) => isDocument(f) === isDocument(file)).length;
    const limit = isDocument(file) ? DOCUMENT_LIMITS.maxDocumentsPerMessage : MAX_IMAGES_PER_MESSAGE;
    if (sameKind < limit) out.push(file);
  }
  return out;
}

/** An uploaded document as the message list carries it (it has no picture to show). */
export const documentAttachment = (info: Pick<FileInfo, 'id' | 'name'>): MessageFile => ({
  id: info.id,
  url: '',
  original_name: info.name,
  kind: 'document',
});

export type ChipState =
  | { phase: 'processing' }
  | { phase: 'ready'; pages: number | null; tokens: number | null }
  | { phase: 'failed'; errorKey: string };

/** What a document's chip shows; before its first answer it counts as processing. */
export function chipState(info: FileInfo | undefined): ChipState {
  if (!info || info.status === 'processing') return { phase: 'processing' };
  if (info.status === 'ready') return { phase: 'ready', pages: info.pages, tokens: info.tokens };
  return { phase: 'failed', errorKey: `errors:${info.error ?? 'FILE_UNREADABLE'}` };
}

/** Why sending waits: a document still being read, or one that failed (to be removed first). */
export type SendHold = 'processing' | 'failed' | null;

export function sendHold(documents: readonly MessageFile[], infos: ReadonlyMap<string, FileInfo>): SendHold {
  const states = documents.map((d) => chipState(infos.get(d.id)).phase);
  if (states.includes('failed')) return 'failed';
  if (states.includes('processing')) return 'processing';
  return null;
}

/** The translation key of the plan's line above the send button, or null when there is nothing to say. */
export function planKey(plan: DocumentPlan | undefined): string | null {
  if (!plan || plan.mode === 'none') return null;
  return plan.mode === 'full' ? 'chat:documents.plan.full' : 'chat:documents.plan.retrieval';
}

/** Polling pace of a document being read; none once it is ready or failed. */
export const PROCESSING_POLL_MS = 1500;
export const pollWhileProcessing = (info: FileInfo | undefined): number | false =>
  !info || info.status === 'processing' ? PROCESSING_POLL_MS : false;
