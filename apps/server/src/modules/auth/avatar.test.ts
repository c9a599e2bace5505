import fs from 'node:fs';
import path from 'node:path';
import type { User } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG_1PX, type TestApp, createTestApp, multipartFile } from '../../../test/test-app.js';

const AVATAR = '/api/auth/avatar';
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1)]);

describe('avatars', () => {
  let t: TestApp;
  let token: string;
  let userId: number;
  beforeAll(async () => {
    t = await createTestApp();
    const { session } = await t.signUp();
    token = session.accessToken;
    userId = session.user.id;
  });
  afterAll(async () => {
    await t.close();
  });

  async function upload(field: string, filename: string, type: string, content: Buffer, auth: string | null = token) {
    const { payload, headers } = multipartFile(field, filename, type, content);
    return t.request<{ user: User; url: string }>('POST', AVATAR, { payload, headers, token: auth ?? undefined });
  }

  it('accepts a PNG and serves it at the returned url with its content type and nosniff', async () => {
    const res = await upload('avatar', 'me.png', 'image/png', PNG_1PX);
    expect(res.status).toBe(200);
    expect(res.body.data.url).toMatch(/^\/api\/avatars\/[0-9a-f-]{36}\.png$/);
    expect(res.body.data.user.avatar_url).toBe(res.body.data.url);
    expect((await t.userRow(userId)).avatar_url).toBe(res.body.data.url);

    const served = await t.app.inject({ method: 'GET', url: res.body.data.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(PNG_1PX)).toBe(true);
  });

  it('trusts the bytes, not the name: a JPEG sent as .png is stored and served as JPEG', async () => {
    const res = await upload('avatar', 'looks-like.png', 'image/png', JPEG);
    expect(res.status).toBe(200);
    expect(res.body.data.url).toMatch(/\.jpg$/);
    const served = await t.app.inject({ method: 'GET', url: res.body.data.url });
    expect(served.headers['content-type']).toBe('image/jpeg');
  });

  it('refuses a text file renamed .png with 415 FILE_TYPE_NOT_ALLOWED', async () => {
    const before = (await t.userRow(userId)).avatar_url;
    const res = await upload('avatar', 'evil.png', 'image/png', Buffer.from('<script>alert(1)</script> just text'));
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ success: false, error: 'FILE_TYPE_NOT_ALLOWED', message: '不支持的文件类型' });
    expect((await t.userRow(userId)).avatar_url).toBe(before);
  });

  it('refuses a file over 2 MB with 413 FILE_TOO_LARGE', async () => {
    const before = (await t.userRow(userId)).avatar_url;
    const big = Buffer.concat([PNG_1PX, Buffer.alloc(2 * 1024 * 1024, 0)]);
    const res = await upload('avatar', 'big.png', 'image/png', big);
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('FILE_TOO_LARGE');
    expect((await t.userRow(userId)).avatar_url).toBe(before);
  });

  it('accepts a file just under 2 MB', async () => {
    const res = await upload(
      'avatar',
      'ok.png',
      'image/png',
      Buffer.concat([PNG_1PX, Buffer.alloc(2 * 1024 * 1024 - PNG_1PX.length - 1, 0)]),
    );
    expect(res.status).toBe(200);
  });

  it('removes the replaced file', async () => {
    const first = await upload('avatar', 'a.png', 'image/png', PNG_1PX);
    const second = await upload('avatar', 'b.png', 'image/png', PNG_1PX);
    expect(second.body.data.url).not.toBe(first.body.data.url);
    const oldFile = path.join(t.config.dataDir, 'avatars', path.basename(first.body.data.url));
    // The old file is removed in the background; wait for it briefly instead of sleeping.
    for (let i = 0; i < 100 && fs.existsSync(oldFile); i++) await new Promise((r) => setTimeout(r, 10));
    expect(fs.existsSync(oldFile)).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: first.body.data.url })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: second.body.data.url })).statusCode).toBe(200);
  });

  it('answers 400 for a multipart request without a file', async () => {
    const boundary = 'xyz123';
    const payload = `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--${boundary}--\r\n`;
    const res = await t.request('POST', AVATAR, {
      payload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      token,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('VALIDATION_FAILED');
  });

  it('answers 400, not 500, for a malformed or truncated multipart body', async () => {
    for (const payload of [
      'garbage',
      '--x\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\n\r\n\x89PNG',
    ]) {
      const res = await t.request('POST', AVATAR, {
        payload,
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
        token,
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('VALIDATION_FAILED');
    }
  });

  it('needs sign-in', async () => {
    const res = await upload('avatar', 'me.png', 'image/png', PNG_1PX, null);
    expect(res.body.error).toBe('UNAUTHORIZED');
    expect(res.status).toBe(401);
  });

  it('serves nothing outside the avatar store', async () => {
    for (const url of [
      '/api/avatars/..%2Fsecret.key',
      '/api/avatars/%2e%2e%2f%2e%2e%2fsecret.key',
      '/api/avatars/secret.key',
      '/api/avatars/00000000-0000-0000-0000-000000000000.png',
    ]) {
      const res = await t.get(url);
      expect([400, 404], url).toContain(res.status);
      expect(res.body.success, url).toBe(false);
      expect(res.text, url).not.toContain(fs.readFileSync(path.join(t.config.dataDir, 'secret.key'), 'utf8').trim());
    }
  });
});
