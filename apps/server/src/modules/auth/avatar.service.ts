import fs from 'node:fs';
import path from 'node:path';
import type { MultipartFile } from '@fastify/multipart';
import type { User } from '@aiplatform/contracts';
import type { FastifyReply } from 'fastify';
import { type Clock, iso } from '../../lib/runtime/clock.js';
import { AppError } from '../../lib/http/errors.js';
import { IMAGE_TYPES, type ImageMime } from '../../lib/http/image-type.js';
import { readImageUpload, storeFile } from '../../lib/http/uploads.js';
import type { UploadGate } from '../storage/upload-gate.js';
import { AVATAR_URL_PREFIX, type AvatarRepo } from './avatar.repo.js';
import type { ProfileService } from './profile.service.js';

const MIME_BY_EXT = Object.fromEntries(Object.entries(IMAGE_TYPES).map(([mime, ext]) => [ext, mime])) as Record<
  string,
  ImageMime
>;

/**
 * Profile pictures: content-checked images under random names in `<data>/avatars`, counted
 * in the site's storage budget and the uploading address's allowance like chat images.
 */
export class AvatarService {
  constructor(
    private readonly dir: string,
    private readonly repo: AvatarRepo,
    private readonly profile: ProfileService,
    private readonly gate: UploadGate,
    private readonly clock: Clock,
  ) {}

  async upload(userId: number, file: MultipartFile | undefined, ip: string): Promise<{ user: User; url: string }> {
    const image = await readImageUpload(file);
    const bytes = image.buffer.length;
    const ticket = await this.gate.begin(ip, bytes, (await this.repo.current(userId)).bytes);
    let name: string | undefined;
    let previous;
    try {
      name = await storeFile(this.dir, image.buffer, image.mime);
      previous = await this.repo.replace(
        userId,
        { url: `${AVATAR_URL_PREFIX}${name}`, bytes },
        iso(this.clock.now()),
        (trx, growth) => ticket.admit(trx, growth),
      );
    } catch (err) {
      if (name) await fs.promises.rm(this.pathOf(name), { force: true }).catch(() => undefined);
      await ticket.cancel();
      throw err;
    }
    this.gate.stored();
    if (previous.url?.startsWith(AVATAR_URL_PREFIX)) {
      fs.rm(this.pathOf(previous.url), { force: true }, () => undefined);
    }
    return { ...(await this.profile.accountChanged(userId)), url: `${AVATAR_URL_PREFIX}${name}` };
  }

  /** Avatars are shown in <img> tags, which send no bearer token; names are unguessable. */
  serve(name: string, reply: FastifyReply) {
    const file = this.pathOf(name);
    if (!fs.existsSync(file)) throw new AppError('NOT_FOUND');
    return reply
      .header('Content-Type', MIME_BY_EXT[path.extname(name).slice(1)] ?? 'application/octet-stream')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'private, max-age=86400')
      .send(fs.createReadStream(file));
  }

  private pathOf(nameOrUrl: string): string {
    return path.join(this.dir, path.basename(nameOrUrl));
  }
}
