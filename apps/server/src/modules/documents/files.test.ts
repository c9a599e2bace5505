import fs from 'node:fs';
import path from 'node:path';
import type { FileInfo, FileText } from '@aiplatform/contracts';
import { QUOTAS } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeDocx,
  makePdf,
  makePptx,
  makeXlsx,
  uploadDocument,
  uploadReady,
  waitReady,
} from '../../../test/document-files.js';
import { recordImage } from '../../../test/upload-helpers.js';
import { PNG_1PX, type TestApp, createTestApp } from '../../../test/test-app.js';

describe('chat files: upload, text, access', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({ config: { logLevel: 'error' } });
    token = (await t.signUp()).session.accessToken;
  });
  afterAll(async () => {
    await t.close();
  });

  const textOf = async (id: string, as = token) => (await t.get<FileText>(`/api/chat/files/${id}/text`, as)).body.data;

  it('reads a PDF page by page, with its passages on their pages', async () => {
    const pdf = await makePdf(['Introduction\nThe first page.', 'The warranty lasts 36 months.', 'Appendix C']);
    const res = await uploadDocument(t, token, 'contract.pdf', pdf);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ kind: 'document', status: 'processing', mime: 'application/pdf' });
    const info = await waitReady(t, token, res.body.data.id);
    expect(info).toMatchObject({ status: 'ready', pages: 3, error: null });
    expect(info.tokens).toBeGreaterThan(5);
    const { pages } = await textOf(info.id);
    expect(pages.map((p) => p.page)).toEqual([1, 2, 3]);
    expect(pages[1]?.text).toContain('warranty lasts 36 months');
    const chunks = await t.db
      .selectFrom('document_chunks')
      .select(['page', 'text'])
      .where('file_id', '=', info.id)
      .execute();
    expect(chunks.find((c) => c.text.includes('warranty'))?.page).toBe(2);
  });

  it('reads a Word document with its headings as lines, without pages', async () => {
    const docx = await makeDocx(['# Scope', 'This agreement covers support.', '# Fees', 'Fees are due monthly.']);
    const info = await uploadReady(t, token, 'agreement.docx', docx);
    expect(info).toMatchObject({ status: 'ready', pages: 1 });
    const text = (await textOf(info.id)).pages[0]?.text ?? '';
    expect(text.split('\n')).toEqual(expect.arrayContaining(['Scope', 'Fees', 'Fees are due monthly.']));
    const chunk = await t.db
      .selectFrom('document_chunks')
      .select('page')
      .where('file_id', '=', info.id)
      .executeTakeFirst();
    expect(chunk?.page).toBeNull();
  });

  it('reads every sheet of a workbook as a table, one page per sheet', async () => {
    const xlsx = await makeXlsx({
      Sales: [
        ['Region', 'Total'],
        ['North', 1200],
      ],
      Costs: [
        ['Item', 'Amount'],
        ['Rent', 800],
      ],
    });
    const info = await uploadReady(t, token, 'report.xlsx', xlsx);
    expect(info).toMatchObject({ status: 'ready', pages: 2 });
    const { pages } = await textOf(info.id);
    expect(pages[0]?.text).toContain('Sales');
    expect(pages[0]?.text).toContain('| North | 1200 |');
    expect(pages[1]?.text).toContain('Costs');
    expect(pages[1]?.text).toContain('| Rent | 800 |');
  });

  it('reads a deck one slide per page, in order', async () => {
    const info = await uploadReady(
      t,
      token,
      'deck.pptx',
      await makePptx(['Kick-off agenda', 'R&D budget <5 million>']),
    );
    expect(info).toMatchObject({ status: 'ready', pages: 2 });
    const { pages } = await textOf(info.id);
    expect(pages.map((p) => p.text)).toEqual(['Kick-off agenda', 'R&D budget <5 million>']);
  });

  it.each([
    ['data.csv', 'name,city\nAda,"London, UK"\n', '| Ada | London, UK |'],
    ['notes.txt', 'plain notes\n\nsecond paragraph', 'second paragraph'],
    ['readme.md', '# Title\n\nSome *markdown*.', '# Title'],
    [
      'page.html',
      '<html><body><h1>Heading</h1><p>Para <a href="https://x.test">link</a></p><script>x()</script></body></html>',
      'Para link',
    ],
    ['config.json', '{"retries": 3}', '"retries": 3'],
    ['main.py', 'def add(a, b):\n    return a + b\n', '    return a + b'],
    ['中文.txt', '合同期限为三年。', '合同期限为三年'],
  ])('reads %s as text', async (name, content, expected) => {
    const info = await uploadReady(t, token, name, Buffer.from(content));
    expect(info).toMatchObject({ status: 'ready', pages: 1, name });
    expect((await textOf(info.id)).pages[0]?.text).toContain(expected);
  });

  it('takes an image by its content: ready at once', async () => {
    const res = await uploadDocument(t, token, 'photo.png', PNG_1PX);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ kind: 'image', status: 'ready', mime: 'image/png' });
    expect((await textOf(res.body.data.id)).pages).toEqual([]);
  });

  it('refuses a file type it does not read (415) and a document over the size limit (413)', async () => {
    const exe = await uploadDocument(t, token, 'setup.exe', Buffer.from('MZ\u0090\u0000'));
    expect(exe.status).toBe(415);
    expect(exe.body.error).toBe('FILE_TYPE_NOT_ALLOWED');
    await t.setSetting('files', { max_document_mb: 1, full_context_share: 0.5 });
    try {
      const big = await uploadDocument(t, token, 'big.txt', Buffer.alloc(1024 * 1024 + 10, 'a'), { lang: 'en-US' });
      expect(big.status).toBe(413);
      expect(big.body).toMatchObject({ error: 'FILE_TOO_LARGE', message: 'The file is too large' });
      expect((await uploadDocument(t, token, 'small.txt', Buffer.alloc(1024 * 1024 - 10, 'a'))).status).toBe(201);
    } finally {
      await t.setSetting('files', { max_document_mb: 20, full_context_share: 0.5 });
    }
  });

  it('keeps the extension of a name cut to 255 characters, so the file is still read by its format', async () => {
    const long = `${'a'.repeat(300)}.txt`;
    const res = await uploadDocument(t, token, long, Buffer.from('a long name'));
    expect(res.status).toBe(201);
    expect(res.body.data.name).toHaveLength(255);
    expect(res.body.data.name.endsWith('.txt')).toBe(true);
  });

  it('never serves a document through the image address, not even to its owner', async () => {
    const doc = await uploadReady(t, token, 'notes.html', Buffer.from('<p>private</p>'));
    expect((await t.get(`/api/chat/images/${doc.id}`, token)).status).toBe(404);
    const admin = (await t.loginAsAdmin()).accessToken;
    expect((await t.get(`/api/chat/images/${doc.id}`, admin)).status).toBe(404);
  });

  it('counts documents in the storage quota of their owner', async () => {
    const { creds, session } = await t.signUp();
    await recordImage(t, creds.id, QUOTAS.uploadBytesPerUser - 100);
    const res = await uploadDocument(t, session.accessToken, 'notes.txt', Buffer.alloc(200, 'a'));
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('UPLOAD_QUOTA_EXCEEDED');
    expect((await uploadDocument(t, session.accessToken, 'tiny.txt', Buffer.from('ok'))).status).toBe(201);
  });

  it('answers 409 for the text of a document still being read', async () => {
    const res = await uploadDocument(t, token, 'later.txt', Buffer.from('soon'));
    // Held by another, live instance: nothing here takes it.
    await t.db
      .updateTable('files')
      .set({
        status: 'processing',
        job_owner: 'elsewhere',
        job_lease_until: new Date(Date.now() + 3_600_000).toISOString(),
      })
      .where('id', '=', res.body.data.id)
      .execute();
    const text = await t.get(`/api/chat/files/${res.body.data.id}/text`, token);
    expect(text.status).toBe(409);
    expect(text.body.error).toBe('FILE_NOT_READY');
  });

  it('shows a file to its owner only, and deletes it with its text and bytes', async () => {
    const info = await uploadReady(t, token, 'private.txt', Buffer.from('owner only'));
    const stranger = (await t.signUp()).session.accessToken;
    expect((await t.get(`/api/chat/files/${info.id}`, stranger)).status).toBe(404);
    expect((await t.get(`/api/chat/files/${info.id}/text`, stranger)).status).toBe(404);
    expect((await t.request('DELETE', `/api/chat/files/${info.id}`, { token: stranger })).status).toBe(404);

    const row = await t.db
      .selectFrom('files')
      .select('stored_name')
      .where('id', '=', info.id)
      .executeTakeFirstOrThrow();
    const stored = path.join(t.config.dataDir, 'uploads', row.stored_name);
    expect(fs.existsSync(stored)).toBe(true);
    const del = await t.request<{ deleted: boolean }>('DELETE', `/api/chat/files/${info.id}`, { token });
    expect(del.status).toBe(200);
    expect(del.body.data.deleted).toBe(true);
    expect((await t.get<FileInfo>(`/api/chat/files/${info.id}`, token)).status).toBe(404);
    expect(fs.existsSync(stored)).toBe(false);
    const pages = await t.db.selectFrom('file_pages').select('page').where('file_id', '=', info.id).execute();
    const chunks = await t.db.selectFrom('document_chunks').select('id').where('file_id', '=', info.id).execute();
    expect([pages, chunks]).toEqual([[], []]);
  });
});
