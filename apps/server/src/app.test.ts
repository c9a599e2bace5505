import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../test/test-app.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const METRICS_TOKEN = 'metrics-token-for-the-scraper';

describe('app shell', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { metricsToken: METRICS_TOKEN } });
  });
  afterAll(async () => {
    await t.close();
  });

  describe('security headers', () => {
    it('forbid scripts from anywhere but the app itself, and framing by other sites', async () => {
      const res = await t.get('/api/public/system-config');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("frame-ancestors 'self'");
      // Images only from the site itself: an image URL in an answer cannot carry chat text away.
      expect(csp).toContain("img-src 'self' data: blob:;");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    });

    it('lift the policy only for the API documentation pages', async () => {
      const docs = await t.app.inject({ method: 'GET', url: '/api/docs/static/index.html' });
      expect(docs.headers['content-security-policy']).toBeUndefined();
    });
  });

  describe('envelope', () => {
    it('wraps a success in { success, code, message, data, timestamp }', async () => {
      const res = await t.get('/api/public/system-config');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, code: 200, message: '操作成功' });
      expect(res.body.data).toBeTypeOf('object');
      expect(new Date(res.body.timestamp).toISOString()).toBe(res.body.timestamp);
    });

    it('answers an unknown API path with a 404 error envelope carrying the request id', async () => {
      const res = await t.get('/api/x');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, code: 404, error: 'NOT_FOUND', message: '资源不存在' });
      expect(res.body.requestId).toBe(res.headers['x-request-id']);
      expect(res.body.requestId).toMatch(UUID);
      expect(new Date(res.body.timestamp).toISOString()).toBe(res.body.timestamp);
    });

    it('answers 404 for unknown API paths on every method, the bare /api included', async () => {
      for (const [method, url] of [
        ['POST', '/api/nothing/here'],
        ['PUT', '/api/auth/nope'],
        ['DELETE', '/api/auth/me'],
        ['GET', '/api'],
      ] as const) {
        const res = await t.request(method, url);
        expect(res.status, `${method} ${url}`).toBe(404);
        expect(res.body.error).toBe('NOT_FOUND');
      }
    });

    it('sends nosniff on API answers', async () => {
      const res = await t.get('/api/public/system-config');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    });
  });

  describe('request id', () => {
    it('echoes a given X-Request-Id in the header and in error envelopes', async () => {
      const res = await t.request('GET', '/api/x', { headers: { 'x-request-id': 'trace-42.abc_DEF' } });
      expect(res.headers['x-request-id']).toBe('trace-42.abc_DEF');
      expect(res.body.requestId).toBe('trace-42.abc_DEF');
    });

    it('generates a fresh id per request when none is given', async () => {
      const a = await t.get('/api/health');
      const b = await t.get('/api/health');
      expect(a.headers['x-request-id']).toMatch(UUID);
      expect(b.headers['x-request-id']).toMatch(UUID);
      expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    });

    it('replaces an unsafe or oversized given id with a generated one', async () => {
      for (const given of ['evil\tid', 'a'.repeat(129), '<script>']) {
        const res = await t.request('GET', '/api/x', { headers: { 'x-request-id': given } });
        expect(res.headers['x-request-id']).toMatch(UUID);
        expect(res.body.requestId).toBe(res.headers['x-request-id']);
      }
    });
  });

  describe('language', () => {
    it('answers in en-US when asked and in zh-CN by default or for other languages', async () => {
      expect((await t.get('/api/x', undefined, 'en-US')).body.message).toBe('Resource not found');
      expect((await t.get('/api/x', undefined, 'en-GB,en;q=0.8')).body.message).toBe('Resource not found');
      expect((await t.get('/api/x')).body.message).toBe('资源不存在');
      expect((await t.get('/api/x', undefined, 'fr-FR')).body.message).toBe('资源不存在');
      expect((await t.get('/api/x', undefined, 'zh-CN,en;q=0.5')).body.message).toBe('资源不存在');
    });

    it('translates success messages too', async () => {
      expect((await t.get('/api/public/system-config', undefined, 'en-US')).body.message).toBe('Success');
    });

    it('translates validation messages', async () => {
      const zh = await t.post('/api/auth/check-email', { email: 'nope' });
      const en = await t.post('/api/auth/check-email', { email: 'nope' }, undefined, 'en-US');
      expect(zh.body.data.errors).toEqual(['邮箱格式不正确']);
      expect(en.body.data.errors).toEqual(['Invalid email format']);
      expect(en.body.message).toBe('Invalid email format');
    });
  });

  describe('health', () => {
    it('GET /api/health answers while the process runs', async () => {
      const res = await t.get('/api/health');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'ok' });
    });

    it('GET /api/ready reports the database, the cache and the data directory’s free space', async () => {
      const res = await t.get('/api/ready');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'ready', database: true, cache: true, disk: true });
      expect(Object.keys(res.body).sort()).toEqual(['cache', 'database', 'disk', 'disk_free_mb', 'status']);
      expect((res.body as unknown as { disk_free_mb: number }).disk_free_mb).toBeGreaterThan(0);
    });
  });

  describe('docs and metrics', () => {
    it('serves an OpenAPI document listing the auth calls', async () => {
      const res = await t.request('GET', '/api/docs/json');
      expect(res.status).toBe(200);
      const doc = JSON.parse(res.text) as { openapi: string; paths: Record<string, Record<string, unknown>> };
      expect(doc.openapi).toMatch(/^3\./);
      const calls: [string, string][] = [
        ['/api/auth/login', 'post'],
        ['/api/auth/login-by-code', 'post'],
        ['/api/auth/login-by-email-password', 'post'],
        ['/api/auth/send-email-code', 'post'],
        ['/api/auth/logout', 'post'],
        ['/api/auth/me', 'get'],
        ['/api/auth/profile', 'put'],
        ['/api/auth/password', 'put'],
        ['/api/auth/credit-history', 'get'],
        ['/api/auth/register', 'post'],
        ['/api/auth/check-email', 'post'],
        ['/api/auth/check-username', 'post'],
        ['/api/auth/refresh', 'post'],
        ['/api/auth/avatar', 'post'],
        ['/api/public/system-config', 'get'],
      ];
      for (const [p, method] of calls) expect(doc.paths[p], `${method} ${p}`).toHaveProperty(method);
      expect(JSON.stringify(doc.paths['/api/auth/login'])).toContain('account');
    });

    it('serves the docs UI', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/docs/' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
    });

    it('exposes Prometheus metrics including request durations by route', async () => {
      await t.get('/api/health');
      const res = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).toContain('process_cpu_user_seconds_total');
      expect(res.body).toMatch(
        /http_request_duration_seconds_count\{[^}]*route="\/api\/health"[^}]*status="200"[^}]*\} [1-9]/,
      );
    });
  });
});

describe('readiness without a database', () => {
  it('GET /api/ready answers 503 when the database is unreachable, while /api/health still answers', async () => {
    const t = await createTestApp();
    try {
      await t.db.destroy();
      const ready = await t.get('/api/ready');
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({ status: 'not_ready', database: false });
      expect((await t.get('/api/health')).status).toBe(200);
    } finally {
      await t.close().catch(() => undefined);
    }
  });
});
