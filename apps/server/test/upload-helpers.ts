import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { UploadedImage, User } from '@aiplatform/contracts';
import { PNG_1PX, type TestApp, multipartFile } from './test-app.js';

/** A PNG of exactly `bytes` bytes (the type is read from the first bytes only). */
export function pngOf(bytes: number): Buffer {
  return Buffer.concat([PNG_1PX, crypto.randomBytes(Math.max(0, bytes - PNG_1PX.length))]);
}

/** POST /api/chat/upload-image as `token`, from `remoteAddress` (127.0.0.1 when unset). */
export function uploadImage(
  t: TestApp,
  token: string,
  content: Buffer = PNG_1PX,
  opts: { lang?: string; remoteAddress?: string } = {},
) {
  const { payload, headers } = multipartFile('image', 'photo.png', 'image/png', content);
  return t.request<UploadedImage>('POST', '/api/chat/upload-image', { payload, headers, token, ...opts });
}

/** POST /api/auth/avatar as `token`. */
export function uploadAvatar(
  t: TestApp,
  token: string,
  content: Buffer = PNG_1PX,
  opts: { lang?: string; remoteAddress?: string } = {},
) {
  const { payload, headers } = multipartFile('avatar', 'me.png', 'image/png', content);
  return t.request<{ user: User; url: string }>('POST', '/api/auth/avatar', { payload, headers, token, ...opts });
}

/** The names of the files in a folder of the data dir (none when it does not exist). */
export function filesIn(t: TestApp, folder: string): string[] {
  const dir = path.join(t.config.dataDir, folder);
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
}

/** Records a stored chat image of `bytes` for the user (the row only: budgets count rows). */
export async function recordImage(t: TestApp, userId: number, bytes: number): Promise<string> {
  const id = crypto.randomUUID();
  await t.db
    .insertInto('files')
    .values({
      id,
      user_id: userId,
      stored_name: `${crypto.randomUUID()}.png`,
      original_name: 'recorded.png',
      mime: 'image/png',
      size: bytes,
      created_at: new Date().toISOString(),
    })
    .execute();
  return id;
}
