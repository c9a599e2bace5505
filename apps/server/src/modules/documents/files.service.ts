import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { MultipartFile } from '@fastify/multipart';
import { type FileInfo, type FileText, LIMITS, QUOTAS } from '@aiplatform/contracts';
import type { FileRow } from '../../db/types.js';
import { AppError, notFound } from '../../lib/http/errors.js';
import { IMAGE_TYPES, detectImageType } from '../../lib/http/image-type.js';
import { writeWhole } from '../../lib/http/uploads.js';
import type { Clock } from '../../lib/runtime/clock.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UploadGate, UploadTicket } from '../storage/upload-gate.js';
import type { DocumentFilesRepo } from './document-files.repo.js';
import type { DocumentIndexRepo } from './document-index.repo.js';
import { presentFile } from './file.presenter.js';
import { formatOfName } from './formats/detect-format.js';

// Control characters in a file name are useless for display and PostgreSQL refuses NUL.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/g;
/** Stored names keep a plain extension of what the file was accepted as. */
const STORED_EXTENSION = {
  pdf: 'pdf',
  docx: 'docx',
  xlsx: 'xlsx',
  pptx: 'pptx',
  csv: 'csv',
  html: 'html',
  text: 'txt',
};

const quotaExceeded = () =>
  new AppError('UPLOAD_QUOTA_EXCEEDED', { mb: Math.round(QUOTAS.uploadBytesPerUser / (1024 * 1024)) });

/** Whether a user may read a file that is not theirs (a document of a knowledge base they read). */
export type CanReadFile = (userId: number, fileId: string) => Promise<boolean>;

/** Names are kept to 255 characters; a longer one loses the end of its stem, never its extension. */
function shortenName(name: string, max = 255): string {
  if (name.length <= max) return name;
  const ext = path.extname(name);
  return ext.length > 0 && ext.length < 32 ? name.slice(0, max - ext.length) + ext : name.slice(0, max);
}

/**
 * Chat files: images (ready at once) and documents (their text extracted in the background,
 * document-jobs.ts). Uploads count in the owner's storage quota and the site's budget like
 * every upload. A file is its owner's; anyone else gets not found, except readers of a
 * knowledge base holding it (`canReadFile`), who may read it but not delete it.
 */
export class FilesService {
  private canReadFile: CanReadFile | undefined;

  constructor(
    private readonly dir: string,
    private readonly files: DocumentFilesRepo,
    private readonly index: DocumentIndexRepo,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    private readonly gate: UploadGate,
    /** Wakes this instance's extraction runner after a document is stored. */
    private readonly onDocument: () => void,
  ) {}

  /** Lets readers of knowledge bases read the documents in them (set by the knowledge bases' wiring). */
  allowReaders(canReadFile: CanReadFile): void {
    this.canReadFile = canReadFile;
  }

  /** The largest upload this endpoint reads at all: the larger of the document and image limits. */
  async maxUploadBytes(): Promise<number> {
    return Math.max(await this.maxDocumentBytes(), LIMITS.imageMaxBytes);
  }

  private async maxDocumentBytes(): Promise<number> {
    return (await this.settings.getSettings()).files.max_document_mb * 1024 * 1024;
  }

  /**
   * Stores an uploaded file (multipart field `file`). An image (by its first bytes) is
   * ready at once; a document is accepted by its name's extension and queued for
   * extraction, where a content that is not what the name says fails. Anything else: 415.
   */
  async upload(userId: number, file: MultipartFile | undefined, ip: string): Promise<FileInfo> {
    if (!file || file.fieldname !== 'file') throw new AppError('VALIDATION_FAILED');
    let buffer: Buffer;
    try {
      buffer = await file.toBuffer();
    } catch (err) {
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('FILE_TOO_LARGE');
      throw new AppError('VALIDATION_FAILED', {}, undefined, err);
    }
    if (file.file.truncated) throw new AppError('FILE_TOO_LARGE');
    const fullName = file.filename.replace(CONTROL, '').trim();
    const name = shortenName(fullName);
    const image = detectImageType(buffer);
    const document = image ? undefined : formatOfName(fullName);
    if (!image && !document) throw new AppError('FILE_TYPE_NOT_ALLOWED');
    const limit = image ? LIMITS.imageMaxBytes : await this.maxDocumentBytes();
    if (buffer.length > limit) throw new AppError('FILE_TOO_LARGE');
    const accepted = image
      ? { kind: 'image' as const, mime: image, ext: IMAGE_TYPES[image], status: 'ready' as const }
      : {
          kind: 'document' as const,
          mime: document!.mime,
          ext: STORED_EXTENSION[document!.format],
          status: 'processing' as const,
        };
    if ((await this.files.bytesOf(userId)) + buffer.length > QUOTAS.uploadBytesPerUser) throw quotaExceeded();
    const ticket = await this.gate.begin(ip, buffer.length);
    try {
      const info = await this.record(userId, buffer, { ...accepted, name: name || `file.${accepted.ext}` }, ticket);
      this.gate.stored();
      if (info.kind === 'document') this.onDocument();
      return info;
    } catch (err) {
      await ticket.cancel();
      throw err;
    }
  }

  /** Writes the bytes, then the row under the quota and the budget; the bytes go again if the row does not. */
  private async record(
    userId: number,
    buffer: Buffer,
    f: { kind: 'image' | 'document'; mime: string; ext: string; status: 'ready' | 'processing'; name: string },
    ticket: UploadTicket,
  ): Promise<FileInfo> {
    await fs.promises.mkdir(this.dir, { recursive: true });
    const storedName = `${crypto.randomUUID()}.${f.ext}`;
    await writeWhole(this.pathOf(storedName), buffer, 0o600);
    const row = {
      id: crypto.randomUUID(),
      user_id: userId,
      stored_name: storedName,
      original_name: f.name,
      mime: f.mime,
      size: buffer.length,
      created_at: this.clock.now().toISOString(),
      kind: f.kind,
      status: f.status,
    };
    let stored = false;
    try {
      stored = await this.files.insertWithinQuota(row, QUOTAS.uploadBytesPerUser, (trx) => ticket.admit(trx, row.size));
    } finally {
      if (!stored) await fs.promises.rm(this.pathOf(storedName), { force: true }).catch(() => undefined);
    }
    if (!stored) throw quotaExceeded();
    return presentFile({
      ...row,
      error_code: null,
      pages: null,
      tokens: null,
      job_owner: null,
      job_lease_until: null,
      job_attempts: 0,
      embed_model: null,
      embed_owner: null,
      embed_lease_until: null,
    });
  }

  /** A file the user may read (their own, or one of a knowledge base they read); not found otherwise. */
  private async readable(userId: number, fileId: string): Promise<FileRow> {
    const file = await this.files.findById(fileId);
    if (!file) throw notFound();
    if (file.user_id === userId) return file;
    if (this.canReadFile && (await this.canReadFile(userId, fileId))) return file;
    throw notFound();
  }

  /** GET /chat/files/{id}. */
  async info(userId: number, fileId: string): Promise<FileInfo> {
    return presentFile(await this.readable(userId, fileId));
  }

  /**
   * GET /chat/files/{id}/text: the extracted pages. While the document is still being read:
   * 409 FILE_NOT_READY; when it failed: its error code (422, or 413 for FILE_TOO_LARGE). An image has no text: no pages.
   */
  async text(userId: number, fileId: string): Promise<FileText> {
    const file = await this.readable(userId, fileId);
    if (file.kind === 'image') return { pages: [] };
    if (file.status === 'processing') throw new AppError('FILE_NOT_READY');
    if (file.status === 'failed')
      throw new AppError(
        file.error_code === 'FILE_ENCRYPTED'
          ? 'FILE_ENCRYPTED'
          : file.error_code === 'FILE_TOO_LARGE'
            ? 'FILE_TOO_LARGE'
            : 'FILE_UNREADABLE',
      );
    return { pages: await this.index.pagesOf(fileId) };
  }

  /**
   * DELETE /chat/files/{id} (the owner only). The row goes with its text, passages and
   * knowledge-base places, then the bytes. A file a sent message lists stays with that
   * message (it goes when the conversation does) but leaves every knowledge base: `deleted`
   * is then false.
   */
  async remove(userId: number, fileId: string): Promise<{ deleted: boolean }> {
    const file = await this.files.findById(fileId);
    if (!file || file.user_id !== userId) throw notFound();
    if (!(await this.files.deleteUnlisted(fileId))) {
      // Kept for the message that lists it, it still leaves every knowledge base at once.
      await this.files.leaveKnowledgeBases(fileId);
      return { deleted: false };
    }
    await fs.promises.rm(this.pathOf(file.stored_name), { force: true }).catch(() => undefined);
    return { deleted: true };
  }

  private pathOf(storedName: string): string {
    return path.join(this.dir, path.basename(storedName));
  }
}
