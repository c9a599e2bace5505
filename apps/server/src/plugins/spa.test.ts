import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/test-app.js';

describe('serving the built web app', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'aip-web-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>app</title>');
    fs.writeFileSync(path.join(dist, 'assets', 'main-abc.js'), 'console.log(1)');
    t = await createTestApp({ config: { webDistDir: dist } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('answers client routes with index.html (history fallback)', async () => {
    for (const url of ['/', '/login', '/chat?x=1', '/module/wiki']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('<title>app</title>');
    }
  });

  it('serves assets with a long cache, and files added after start too', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/main-abc.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
    fs.writeFileSync(path.join(dist, 'assets', 'later-def.js'), 'console.log(2)');
    expect((await t.app.inject({ method: 'GET', url: '/assets/later-def.js' })).statusCode).toBe(200);
  });

  it('answers a missing asset or file with 404, never with the page', async () => {
    for (const url of ['/assets/gone-123.js', '/favicon-missing.png']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('<title>app</title>');
    }
  });

  it('keeps unknown API paths as 404 envelopes', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/unknown' });
    expect(res.statusCode).toBe(404);
    expect(JSON.parse(res.body)).toMatchObject({ success: false, error: 'NOT_FOUND' });
  });
});
