import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyReply } from 'fastify';
import { AppError, InputError } from '../../lib/http/errors.js';
import { IMAGE_TYPES, detectImageType, isIcon } from '../../lib/http/image-type.js';
import { writeWhole } from '../../lib/http/uploads.js';
import type { AdminContext } from '../../policies/actor.js';
import { authorize } from '../../policies/policy.js';
import type { AdminTransactions } from '../audit/admin-tx.js';

export type SiteImageKind = 'logo' | 'favicon';

/** Site images are small; the limit also bounds what visitors download on every sign-in page. */
export const SITE_IMAGE_MAX_BYTES = 2 * 1024 * 1024;

/** Where uploaded site images are served; no sign-in (the sign-in page shows them). */
export const SITE_IMAGE_URL_PREFIX = '/api/public/site-images/';

const CONTENT_TYPES: Record<string, string> = {
  ...Object.fromEntries(Object.entries(IMAGE_TYPES).map(([mime, ext]) => [ext, mime])),
  ico: 'image/x-icon',
};

/** A stored name: the content's sha256 and its extension. */
export const SITE_IMAGE_NAME = /^[0-9a-f]{64}\.(png|jpg|gif|webp|ico)$/;

/**
 * Logo and favicon uploads. The type is decided by the content (never the file name or
 * declared type; SVG is never accepted, since it can carry script), and the file is
 * stored under the hash of its content: the same image is stored once and its address
 * never changes meaning, so browsers may cache it for good. An upload only stores the
 * file and answers its address; the site shows it once an administrator saves that
 * address as `site.logo` or `site.favicon`.
 */
export class SiteImagesService {
  constructor(
    private readonly dir: string,
    private readonly tx: AdminTransactions,
  ) {}

  /** `read` opens the request's file part; it runs only once the caller is known to be allowed. */
  async upload(
    ctx: AdminContext,
    kind: SiteImageKind,
    read: () => Promise<MultipartFile | undefined>,
  ): Promise<{ url: string }> {
    authorize(ctx.actor, 'settings.manage');
    const file = await read();
    const buffer = await readPart(file, kind);
    const ext = extensionOf(buffer, kind);
    const name = `${crypto.createHash('sha256').update(buffer).digest('hex')}.${ext}`;
    await fsp.mkdir(this.dir, { recursive: true });
    // Written under a temporary name and renamed, so a reader never sees half a file.
    const target = path.join(this.dir, name);
    if (!fs.existsSync(target)) {
      const partial = `${target}.${crypto.randomUUID()}.part`;
      await writeWhole(partial, buffer, 0o644);
      try {
        await fsp.rename(partial, target);
      } catch (err) {
        await fsp.rm(partial, { force: true }).catch(() => undefined);
        throw err;
      }
    }
    const url = `${SITE_IMAGE_URL_PREFIX}${name}`;
    return this.tx.run(ctx, async () => ({
      result: { url },
      audit: {
        action: 'settings.upload',
        targetType: 'settings',
        targetId: kind,
        after: { kind, url, bytes: buffer.length, original_name: file?.filename.slice(0, 255) ?? null },
      },
    }));
  }

  serve(name: string, reply: FastifyReply) {
    const file = path.join(this.dir, path.basename(name));
    if (!SITE_IMAGE_NAME.test(name) || !fs.existsSync(file)) throw new AppError('NOT_FOUND');
    return reply
      .header('Content-Type', CONTENT_TYPES[path.extname(name).slice(1)] ?? 'application/octet-stream')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .send(fs.createReadStream(file));
  }
}

const FIELD: Record<SiteImageKind, string> = { logo: 'logo', favicon: 'favicon' };
const WRONG_TYPE: Record<SiteImageKind, string> = {
  logo: 'validation.image.invalid',
  favicon: 'validation.image.favicon',
};

async function readPart(file: MultipartFile | undefined, kind: SiteImageKind): Promise<Buffer> {
  if (!file || file.fieldname !== FIELD[kind]) throw new InputError([WRONG_TYPE[kind]]);
  let buffer: Buffer;
  try {
    buffer = await file.toBuffer();
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('FILE_TOO_LARGE');
    // A truncated or malformed multipart body is the client's fault, never a 500.
    throw new AppError('VALIDATION_FAILED', {}, undefined, err);
  }
  if (file.file.truncated) throw new AppError('FILE_TOO_LARGE');
  return buffer;
}

function extensionOf(buffer: Buffer, kind: SiteImageKind): string {
  const mime = detectImageType(buffer);
  if (mime) return IMAGE_TYPES[mime];
  if (kind === 'favicon' && isIcon(buffer)) return 'ico';
  throw new InputError([WRONG_TYPE[kind]]);
}
