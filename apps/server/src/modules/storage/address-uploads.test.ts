import fsp from 'node:fs/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { filesIn, pngOf, uploadAvatar, uploadImage } from '../../../test/upload-helpers.js';

const KB = 1024;

describe('uploads per client address', () => {
  let t: TestApp;
  let superToken: string;
  beforeAll(async () => {
    t = await createTestApp();
    superToken = (await t.loginAsAdmin()).accessToken;
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    // A fresh window for every address (the window opens with an address's first upload).
    t.clock.advance(2 * 3_600_000);
    const res = await t.put('/api/admin/settings', { storage: { address_mb_per_hour: 1, budget_mb: 0 } }, superToken);
    expect(res.status).toBe(200);
  });

  const token = async () => (await t.signUp()).session.accessToken;

  it('holds one address to its megabytes per hour across its accounts, with a translated 429', async () => {
    const from = { remoteAddress: '203.0.113.7' };
    expect((await uploadImage(t, await token(), pngOf(400 * KB), from)).status).toBe(200);
    expect((await uploadImage(t, await token(), pngOf(400 * KB), from)).status).toBe(200);
    const third = await token();
    const onDisk = filesIn(t, 'uploads');
    const refused = await uploadImage(t, third, pngOf(400 * KB), { ...from, lang: 'en-US' });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('UPLOAD_RATE_LIMITED');
    expect(refused.body.message).toBe('Too much has been uploaded from your network address; try again in 60 minutes');
    expect((await uploadImage(t, third, pngOf(400 * KB), { ...from, lang: 'zh-CN' })).body.message).toBe(
      '您所在网络地址的上传量过大，请 60 分钟后再试',
    );
    // An avatar counts too; what still fits passes.
    expect((await uploadAvatar(t, third, pngOf(300 * KB), from)).body.error).toBe('UPLOAD_RATE_LIMITED');
    expect((await uploadAvatar(t, third, pngOf(200 * KB), from)).status).toBe(200);
    expect(filesIn(t, 'uploads')).toEqual(onDisk);

    // Another address is not concerned; the window closes an hour after it opened.
    expect((await uploadImage(t, third, pngOf(400 * KB), { remoteAddress: '198.51.100.9' })).status).toBe(200);
    t.clock.advance(30 * 60_000);
    expect((await uploadImage(t, third, pngOf(100 * KB), { ...from, lang: 'en-US' })).body.message).toContain(
      'try again in 30 minutes',
    );
    t.clock.advance(30 * 60_000 + 1000);
    expect((await uploadImage(t, third, pngOf(900 * KB), from)).status).toBe(200);
  });

  it('counts an IPv6 client by its /64, and exempts trusted networks (loopback by default)', async () => {
    const tk = await token();
    expect((await uploadImage(t, tk, pngOf(800 * KB), { remoteAddress: '2001:db8:1:2::1' })).status).toBe(200);
    const next = await uploadImage(t, tk, pngOf(400 * KB), { remoteAddress: '2001:db8:1:2:ffff::9' });
    expect(next.body.error).toBe('UPLOAD_RATE_LIMITED');
    for (let i = 0; i < 3; i += 1) {
      expect((await uploadImage(t, tk, pngOf(800 * KB), { remoteAddress: '127.0.0.1' })).status).toBe(200);
    }
  });

  it('gives the bytes of a failed upload back, and counts nothing while the limit is off (0)', async () => {
    const from = { remoteAddress: '192.0.2.44' };
    const tk = await token();
    const full = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    const write = vi.spyOn(fsp, 'writeFile').mockRejectedValueOnce(full);
    try {
      expect((await uploadImage(t, tk, pngOf(900 * KB), from)).status).toBe(503);
    } finally {
      write.mockRestore();
    }
    expect((await uploadImage(t, tk, pngOf(900 * KB), from)).status).toBe(200);

    await t.put('/api/admin/settings', { storage: { address_mb_per_hour: 0 } }, superToken);
    for (let i = 0; i < 3; i += 1) expect((await uploadImage(t, tk, pngOf(900 * KB), from)).status).toBe(200);
  });
});
