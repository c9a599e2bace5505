import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { MultipartFile } from '@fastify/multipart';
import { AppError } from './errors.js';
import { IMAGE_TYPES, type ImageMime, detectImageType } from './image-type.js';

/** Reads one uploaded image fully (size limited by multipart) and checks its content. */
export async function readImageUpload(
  file: MultipartFile | undefined,
): Promise<{ buffer: Buffer; mime: ImageMime; originalName: string }> {
  if (!file) throw new AppError('VALIDATION_FAILED');
  let buffer: Buffer;
  try {
    buffer = await file.toBuffer();
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('FILE_TOO_LARGE');
    throw err;
  }
  if (file.file.truncated) throw new AppError('FILE_TOO_LARGE');
  const mime = detectImageType(buffer);
  if (!mime) throw new AppError('FILE_TYPE_NOT_ALLOWED');
  return { buffer, mime, originalName: file.filename.slice(0, 255) };
}

/** Stores bytes under a random name in a data-dir folder; returns the stored file name. */
export async function storeFile(dir: string, buffer: Buffer, mime: ImageMime): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  const name = `${crypto.randomUUID()}.${IMAGE_TYPES[mime]}`;
  await fs.writeFile(path.join(dir, name), buffer, { mode: 0o600 });
  return name;
}
