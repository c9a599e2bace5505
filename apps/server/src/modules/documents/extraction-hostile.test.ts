import { ERROR_STATUS, type ErrorCode } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeDeepPptx,
  makeEncryptedOffice,
  makeEncryptedPdf,
  makeEntityBombDocx,
  makeUnderstatedZipDocx,
  makeZipBombDocx,
  uploadDocument,
  uploadReady,
} from '../../../test/document-files.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';

/** Files built to fail or to hurt: each ends `failed` with its code, and the server goes on serving. */
describe('hostile documents', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = (await t.signUp()).session.accessToken;
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    ['a text file named as a PDF', 'report.pdf', () => Buffer.from('just some text, not a PDF'), 'FILE_UNREADABLE'],
    [
      'a PDF header named as a Word document',
      'letter.docx',
      () => Buffer.from('%PDF-1.4 not a zip at all'),
      'FILE_UNREADABLE',
    ],
    [
      'a PDF that breaks off',
      'broken.pdf',
      () => Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R'),
      'FILE_UNREADABLE',
    ],
    ['a password-protected PDF', 'locked.pdf', makeEncryptedPdf, 'FILE_ENCRYPTED'],
    ['a password-protected Office file', 'locked.xlsx', makeEncryptedOffice, 'FILE_ENCRYPTED'],
    ['a decompression bomb', 'bomb.docx', makeZipBombDocx, 'FILE_TOO_LARGE'],
    ['a decompression bomb whose headers understate it', 'hidden.docx', makeUnderstatedZipDocx, 'FILE_UNREADABLE'],
    ['an XML entity bomb', 'laughs.docx', makeEntityBombDocx, 'FILE_UNREADABLE'],
    ['XML nested far too deep', 'deep.pptx', makeDeepPptx, 'FILE_UNREADABLE'],
    ['text with NUL bytes', 'notes.txt', () => Buffer.from('abc\u0000def'), 'FILE_UNREADABLE'],
    ['text that is not UTF-8', 'notes.md', () => Buffer.from([0x68, 0x69, 0xff, 0xfe, 0x80]), 'FILE_UNREADABLE'],
  ])('%s fails with its code', async (_what, name, make, code) => {
    const info = await uploadReady(t, token, name, await make());
    expect(info).toMatchObject({ status: 'failed', error: code, pages: null });
    const text = await t.get(`/api/chat/files/${info.id}/text`, token);
    // The failure's own status: 422 for an unreadable or protected file, 413 for one too large to read.
    expect(text.status).toBe(ERROR_STATUS[code as ErrorCode]);
    expect(text.body.error).toBe(code);
    // The server still answers, and still reads a good file.
    expect((await uploadReady(t, token, 'fine.txt', Buffer.from('still fine'))).status).toBe('ready');
  });

  it('gives up on a document that keeps killing its workers', async () => {
    const res = await uploadDocument(t, token, 'cursed.txt', Buffer.from('text'));
    await t.db
      .updateTable('files')
      .set({ status: 'processing', job_owner: 'gone', job_lease_until: new Date(0).toISOString(), job_attempts: 3 })
      .where('id', '=', res.body.data.id)
      .execute();
    const failed = await uploadReady(t, token, 'next.txt', Buffer.from('x')).then(async () => {
      for (;;) {
        const row = await t.db
          .selectFrom('files')
          .select(['status', 'error_code'])
          .where('id', '=', res.body.data.id)
          .executeTakeFirstOrThrow();
        if (row.status !== 'processing') return row;
        await new Promise((r) => setTimeout(r, 50));
      }
    });
    expect(failed).toEqual({ status: 'failed', error_code: 'FILE_UNREADABLE' });
  });
});
