import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.js';
import { IMAGE_TYPES, type ImageMime, detectImageType } from './image-type.js';

/** The single file part of a multipart request; a malformed body is a 400. */
export async function readFilePart(req: FastifyRequest, maxBytes: number): Promise<MultipartFile | undefined> {
  try {
    return await req.file({ limits: { fileSize: maxBytes, files: 1 } });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw new AppError('UNSUPPORTED_MEDIA_TYPE');
    if (typeof (err as { statusCode?: number }).statusCode === 'number') throw err;
    throw new AppError('VALIDATION_FAILED', {}, undefined, err);
  }
}

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
    // A truncated or malformed multipart body is the client's fault, never a 500.
    throw new AppError('VALIDATION_FAILED', {}, undefined, err);
  }
  if (file.file.truncated) throw new AppError('FILE_TOO_LARGE');
  const mime = detectImageType(buffer);
  if (!mime) throw new AppError('FILE_TYPE_NOT_ALLOWED');
  return { buffer, mime, originalName: file.filename.slice(0, 255) };
}

/**
 * Stores bytes under a random name in a data-dir folder; returns the stored file name.
 * A write that fails part-way (a full disk) leaves nothing behind: the file it had begun
 * is removed before the error goes on.
 */
export async function storeFile(dir: string, buffer: Buffer, mime: ImageMime): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  const name = `${crypto.randomUUID()}.${IMAGE_TYPES[mime]}`;
  await writeWhole(path.join(dir, name), buffer, 0o600);
  return name;
}

/** Writes a whole file, or removes what was written and throws the write's error. */
export async function writeWhole(file: string, buffer: Buffer, mode: number): Promise<void> {
  try {
    await fs.writeFile(file, buffer, { mode });
  } catch (err) {
    await fs.rm(file, { force: true }).catch(() => undefined);
    throw err;
  }
}
