import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { MultipartFile } from '@fastify/multipart';
import { QUOTAS, type UploadedImage } from '@aiplatform/contracts';
import type { FastifyReply } from 'fastify';
import type { FileRow } from '../../db/types.js';
import type { AuthContext } from '../../lib/auth/auth-guard.js';
import type { Clock } from '../../lib/runtime/clock.js';
import type { SignedImageUrls } from '../../lib/auth/signed-image-urls.js';
import { actorFromAuth } from '../../policies/actor.js';
import { can } from '../../policies/policy.js';
import { AppError, notFound } from '../../lib/http/errors.js';
import { IMAGE_TYPES, type ImageMime } from '../../lib/http/image-type.js';
import { readImageUpload, storeFile } from '../../lib/http/uploads.js';
import type { UploadGate, UploadTicket } from '../storage/upload-gate.js';
import type { FilesRepo } from './files.repo.js';
import type { MessageFilesRepo, ReleasedFile } from './message-files.repo.js';

// Control characters in a file name are useless for display and PostgreSQL refuses NUL.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/g;

/** An upload no message lists is kept this long (time to write the message), then deleted. */
const STALE_UPLOAD_MS = 24 * 3_600_000;
/** Files removed per statement while pruning, well under every dialect's parameter limit. */
const PRUNE_BATCH = 500;

const quotaExceeded = () =>
  new AppError('UPLOAD_QUOTA_EXCEEDED', { mb: Math.round(QUOTAS.uploadBytesPerUser / (1024 * 1024)) });

/** Chat images: content-checked, stored under random names, readable only by the owner or an administrator. */
export class ImagesService {
  constructor(
    private readonly dir: string,
    private readonly files: FilesRepo,
    private readonly messageFiles: MessageFilesRepo,
    private readonly clock: Clock,
    /** Signs the addresses every answer carries, and checks them when one is fetched. */
    readonly urls: SignedImageUrls,
    /** The site's storage budget and the per-address upload allowance. */
    private readonly gate: UploadGate,
  ) {}

  /**
   * Stores an uploaded image (multipart field `image`) for the user, within the user's
   * storage quota (QUOTAS.uploadBytesPerUser over all their stored images), the site's
   * storage budget and the hourly allowance of the address `ip` (modules/storage).
   */
  async upload(userId: number, file: MultipartFile | undefined, ip: string): Promise<UploadedImage> {
    const image = await readImageUpload(file);
    if (file?.fieldname !== 'image') throw new AppError('VALIDATION_FAILED');
    const size = image.buffer.length;
    // Checked once before writing any bytes, and again with the row (simultaneous uploads).
    if ((await this.files.bytesOf(userId)) + size > QUOTAS.uploadBytesPerUser) throw quotaExceeded();
    const ticket = await this.gate.begin(ip, size);
    try {
      const uploaded = await this.record(userId, image, ticket);
      this.gate.stored();
      return uploaded;
    } catch (err) {
      await ticket.cancel();
      throw err;
    }
  }

  /** Writes the bytes, then the row under the quota and the budget; the bytes go again if the row does not. */
  private async record(
    userId: number,
    image: { buffer: Buffer; mime: ImageMime; originalName: string },
    ticket: UploadTicket,
  ): Promise<UploadedImage> {
    const size = image.buffer.length;
    const storedName = await storeFile(this.dir, image.buffer, image.mime);
    const id = crypto.randomUUID();
    const originalName = image.originalName.replace(CONTROL, '').trim() || `image.${IMAGE_TYPES[image.mime]}`;
    const row = {
      id,
      user_id: userId,
      stored_name: storedName,
      original_name: originalName,
      mime: image.mime,
      size,
      created_at: this.clock.now().toISOString(),
    };
    let stored = false;
    try {
      stored = await this.files.insertWithinQuota(row, QUOTAS.uploadBytesPerUser, (trx) => ticket.admit(trx, size));
    } finally {
      if (!stored) await this.removeBlobs([{ id, stored_name: storedName }]);
    }
    if (!stored) throw quotaExceeded();
    return { id, url: this.urls.url(id, userId), original_name: originalName, mime: image.mime, size };
  }

  /**
   * The user's own uploads, in the order asked, for attaching to a message; if any one is
   * someone else's, unknown or (an image) gone from disk, the whole send is refused as not
   * found. A document's text is read from the database, not from its upload.
   */
  async findOwn(userId: number, fileIds: readonly string[]): Promise<FileRow[]> {
    const found = new Map((await this.files.findOwned(fileIds, userId)).map((f) => [f.id, f]));
    return fileIds.map((id) => {
      const file = found.get(id);
      if (!file || (file.kind === 'image' && !fs.existsSync(this.pathOf(file.stored_name)))) throw notFound();
      return file;
    });
  }

  /**
   * Deletes the bytes of files whose rows are gone (after the transaction that removed
   * them committed). A file already missing is fine; a failure to delete leaves a stray
   * file on disk but never fails the request, whose rows are already gone.
   */
  async removeBlobs(released: readonly ReleasedFile[]): Promise<void> {
    await Promise.all(
      released.map((f) => fs.promises.rm(this.pathOf(f.stored_name), { force: true }).catch(() => undefined)),
    );
  }

  /**
   * Housekeeping: uploads that no message lists and that are older than a day are
   * deleted, rows and bytes. Returns how many went.
   */
  async pruneStaleUploads(now: Date): Promise<number> {
    const before = new Date(now.getTime() - STALE_UPLOAD_MS).toISOString();
    let pruned = 0;
    for (;;) {
      const released = await this.messageFiles.releaseStale(before, PRUNE_BATCH);
      await this.removeBlobs(released);
      pruned += released.length;
      if (released.length < PRUNE_BATCH) return pruned;
    }
  }

  /** The bytes of a stored image, for the model; undefined when the file is gone from disk. */
  async read(storedName: string, mime: string): Promise<{ data: Buffer; mediaType: ImageMime } | undefined> {
    try {
      return { data: await fs.promises.readFile(this.pathOf(storedName)), mediaType: mime as ImageMime };
    } catch {
      return undefined;
    }
  }

  /** Streams an image to its owner or an administrator over the owner; to anyone else it does not exist. */
  async serve(auth: AuthContext, fileId: string, reply: FastifyReply) {
    const file = await this.files.findById(fileId);
    // Documents are read through the files calls, by their owner and knowledge-base readers only.
    if (!file || file.kind !== 'image' || !(await this.maySee(auth, file))) throw notFound();
    return this.send(file, reply);
  }

  /**
   * Streams an image to whoever holds a signed address of it (no bearer header). A changed,
   * foreign or expired signature, or one for an image that is gone, is refused alike.
   */
  async serveSigned(fileId: string, exp: number, sig: string, reply: FastifyReply) {
    const file = await this.files.findById(fileId);
    if (!file || file.kind !== 'image' || !this.urls.verify(file.id, file.user_id, exp, sig))
      throw new AppError('IMAGE_LINK_INVALID');
    return this.send(file, reply);
  }

  private send(file: FileRow, reply: FastifyReply) {
    const full = this.pathOf(file.stored_name);
    if (!fs.existsSync(full)) throw notFound();
    return reply
      .header('Content-Type', file.mime)
      .header('Content-Length', file.size)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "default-src 'none'")
      .header('Cache-Control', 'private, max-age=86400')
      .send(fs.createReadStream(full));
  }

  private async maySee(auth: AuthContext, file: FileRow): Promise<boolean> {
    if (file.user_id === auth.user.id) return true;
    const owner = await this.files.owner(file.user_id);
    if (!owner) return false;
    const target = {
      kind: 'file',
      owner_id: file.user_id,
      owner_group_id: owner.group_id,
      owner_role: owner.role,
    } as const;
    return can(await actorFromAuth(auth), 'file.read', target);
  }

  private pathOf(storedName: string): string {
    return path.join(this.dir, path.basename(storedName));
  }
}
