import crypto from 'node:crypto';
import type { UploadedImage } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG_1PX, type TestApp, createTestApp, multipartFile } from '../../test/test-app.js';

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
});
