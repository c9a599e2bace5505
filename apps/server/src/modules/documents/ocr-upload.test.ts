import type { FileText } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadReady } from '../../../test/document-files.js';
import { makeScannedPdf } from '../../../test/scanned-pdf.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';

/**
 * The server as set up reads an uploaded scan by OCR (the machine has tesseract and
 * pdftoppm; CI installs them): its text is shown and its passages are indexed.
 */
describe('an uploaded scanned PDF', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({ config: { logLevel: 'error' } });
    token = (await t.signUp()).session.accessToken;
  });
  afterAll(async () => {
    await t.close();
  });

  it('is read by OCR: its page has text and passages', async () => {
    const scan = await makeScannedPdf([
      { lines: ['Invoice for walnut timber', 'Delivered to the Lisbon yard'], script: 'latin' },
    ]);
    const info = await uploadReady(t, token, 'scan.pdf', scan);
    expect(info).toMatchObject({ status: 'ready', pages: 1 });
    const text = (await t.get<FileText>(`/api/chat/files/${info.id}/text`, token)).body.data;
    expect(text.pages[0]?.text).toContain('walnut timber');
    const chunks = await t.db.selectFrom('document_chunks').select('text').where('file_id', '=', info.id).execute();
    expect(chunks.map((c) => c.text).join(' ')).toContain('Lisbon');
  }, 90_000);
});
