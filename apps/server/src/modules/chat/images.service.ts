import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { MultipartFile } from '@fastify/multipart';
import type { UploadedImage } from '@aiplatform/contracts';
import type { FastifyReply } from 'fastify';
import type { FileRow } from '../../db/types.js';
import type { AuthContext } from '../../lib/auth-guard.js';
import type { Clock } from '../../lib/clock.js';
import { actorFromAuth } from '../../policies/actor.js';
import { can } from '../../policies/policy.js';
import { AppError, notFound } from '../../lib/errors.js';
import { IMAGE_TYPES, type ImageMime } from '../../lib/image-type.js';
import { readImageUpload, storeFile } from '../../lib/uploads.js';
import { imageUrl } from './chat.presenter.js';
import type { FilesRepo } from './files.repo.js';

// Control characters in a file name are useless for display and PostgreSQL refuses NUL.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/g;

/** Chat images: content-checked, stored under random names, readable only by the owner or an administrator. */
export class ImagesService {
  constructor(
    private readonly dir: string,
    private readonly files: FilesRepo,
    private readonly clock: Clock,
  ) {}

  /** Stores an uploaded image (multipart field `image`) for the user. */
  async upload(userId: number, file: MultipartFile | undefined): Promise<UploadedImage> {
    const image = await readImageUpload(file);
    if (file?.fieldname !== 'image') throw new AppError('VALIDATION_FAILED');
    const storedName = await storeFile(this.dir, image.buffer, image.mime);
    const id = crypto.randomUUID();
    const originalName = image.originalName.replace(CONTROL, '').trim() || `image.${IMAGE_TYPES[image.mime]}`;
    await this.files.insert({
      id,
      user_id: userId,
      stored_name: storedName,
      original_name: originalName,
      mime: image.mime,
      size: image.buffer.length,
      created_at: this.clock.now().toISOString(),
    });
    return { id, url: imageUrl(id), original_name: originalName, mime: image.mime, size: image.buffer.length };
  }

  /** The user's own upload, for attaching to a message; someone else's is not found. */
  async findOwn(userId: number, fileId: string): Promise<FileRow> {
    const file = await this.files.findOwned(fileId, userId);
    if (!file || !fs.existsSync(this.pathOf(file.stored_name))) throw notFound();
    return file;
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
    if (!file || !(await this.maySee(auth, file))) throw notFound();
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
