import fs from 'node:fs';
import path from 'node:path';
import type { MultipartFile } from '@fastify/multipart';
import type { User } from '@aiplatform/contracts';
import type { FastifyReply } from 'fastify';
import { AppError } from '../../lib/errors.js';
import { IMAGE_TYPES, type ImageMime } from '../../lib/image-type.js';
import { readImageUpload, storeFile } from '../../lib/uploads.js';
import type { ProfileService } from './profile.service.js';

const MIME_BY_EXT = Object.fromEntries(Object.entries(IMAGE_TYPES).map(([mime, ext]) => [ext, mime])) as Record<
  string,
  ImageMime
>;

/** Profile pictures: content-checked images under random names in `<data>/avatars`. */
export class AvatarService {
  constructor(
    private readonly dir: string,
    private readonly profile: ProfileService,
  ) {}

  async upload(userId: number, file: MultipartFile | undefined): Promise<{ user: User; url: string }> {
    const image = await readImageUpload(file);
    const name = await storeFile(this.dir, image.buffer, image.mime);
    const previous = (await this.profile.getUser(userId)).avatar_url;
    const url = `/api/avatars/${name}`;
    const { user } = await this.profile.setAvatar(userId, url);
    if (previous?.startsWith('/api/avatars/')) {
      fs.rm(path.join(this.dir, path.basename(previous)), { force: true }, () => undefined);
    }
    return { user, url };
  }

  /** Avatars are shown in <img> tags, which send no bearer token; names are unguessable. */
  serve(name: string, reply: FastifyReply) {
    const file = path.join(this.dir, path.basename(name));
    if (!fs.existsSync(file)) throw new AppError('NOT_FOUND');
    return reply
      .header('Content-Type', MIME_BY_EXT[path.extname(name).slice(1)] ?? 'application/octet-stream')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'private, max-age=86400')
      .send(fs.createReadStream(file));
  }
}
