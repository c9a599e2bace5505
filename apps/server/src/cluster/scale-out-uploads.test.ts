import crypto from 'node:crypto';
import type { UploadedImage } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG_1PX, type TestApp, createTestApp, multipartFile } from '../../test/test-app.js';
import { pngOf, uploadImage } from '../../test/upload-helpers.js';

const REDIS_URL = process.env.TEST_REDIS_URL || undefined;

/*
 * Instances behind a load balancer share the data dir: an image uploaded through one is
 * served by any other, still only to its owner.
 */
describe.skipIf(!REDIS_URL)('uploads across two instances', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp({ config: { redisUrl: REDIS_URL, redisPrefix: `test-${crypto.randomUUID()}:` } });
    b = await a.sibling();
  });
  afterAll(async () => {
    await b.app.close();
    await a.close();
  });

  it('serves an image uploaded on one instance from the other, to its owner only', async () => {
    const owner = (await a.signUp()).session.accessToken;
    const other = (await b.signUp()).session.accessToken;
    const { payload, headers } = multipartFile('image', 'shared.png', 'image/png', PNG_1PX);
    const uploaded = await a.request<UploadedImage>('POST', '/api/chat/upload-image', {
      payload,
      headers,
      token: owner,
    });
    expect(uploaded.status).toBe(200);

    // The answer's url is signed for its owner (it works in a plain <img>, on any instance);
    // the bare path still takes a bearer token and refuses anyone but the owner.
    const signedUrl = uploaded.body.data.url;
    const barePath = signedUrl.split('?')[0] as string;
    const fetchFromB = (token: string) =>
      b.app.inject({ method: 'GET', url: barePath, headers: { authorization: `Bearer ${token}` } });
    const served = await fetchFromB(owner);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(PNG_1PX)).toBe(true);
    const signed = await b.app.inject({ method: 'GET', url: signedUrl });
    expect(signed.statusCode).toBe(200);
    expect(signed.rawPayload.equals(PNG_1PX)).toBe(true);
    const hidden = await fetchFromB(other);
    expect(hidden.statusCode).toBe(404);
    expect(JSON.parse(hidden.body)).toMatchObject({ success: false, error: 'NOT_FOUND' });
  });

  it('counts one address’s uploads and the site’s stored bytes together on every instance', async () => {
    const superToken = (await a.loginAsAdmin()).accessToken;
    const storage = { address_mb_per_hour: 1, budget_mb: 0 };
    expect((await a.put('/api/admin/settings', { storage }, superToken)).status).toBe(200);
    const from = { remoteAddress: '203.0.113.70' };
    const viaA = (await a.signUp()).session.accessToken;
    const viaB = (await b.signUp()).session.accessToken;
    expect((await uploadImage(a, viaA, pngOf(700 * 1024), from)).status).toBe(200);
    const refused = await uploadImage(b, viaB, pngOf(400 * 1024), from);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('UPLOAD_RATE_LIMITED');

    // The budget is counted from the database: what one instance stored fills it for the other.
    const used = (await a.get<{ used_bytes: number }>('/api/admin/settings/storage-usage', superToken)).body.data
      .used_bytes;
    const budgetMb = Math.ceil((used + 1) / (1024 * 1024));
    const free = budgetMb * 1024 * 1024 - used;
    expect(
      (await a.put('/api/admin/settings', { storage: { address_mb_per_hour: 0, budget_mb: budgetMb } }, superToken))
        .status,
    ).toBe(200);
    expect((await uploadImage(a, viaA, pngOf(Math.ceil(free / 2)))).status).toBe(200);
    await expect
      .poll(async () => (await uploadImage(b, viaB, pngOf(Math.ceil(free / 2)))).body.error)
      .toBe('SITE_STORAGE_FULL');
  });
});
