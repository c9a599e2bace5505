import crypto from 'node:crypto';
import type { FileStatus } from '@aiplatform/contracts';
import { estimateTokens } from '../src/ai/tokens.js';
import { DocumentIndexRepo } from '../src/modules/documents/document-index.repo.js';
import type { TestApp } from './test-app.js';

/**
 * A document as extraction would leave it, written straight to the database: its `files`
 * row and, when ready, its pages and one passage per page (tokens as the chat estimates
 * them). `tokens` overrides the document's total when a test needs an exact number.
 */
export async function insertDocument(
  t: TestApp,
  userId: number,
  opts: { name: string; pages: string[]; status?: FileStatus; errorCode?: string; tokens?: number; paged?: boolean },
): Promise<string> {
  const id = crypto.randomUUID();
  const status = opts.status ?? 'ready';
  const paged = opts.paged ?? opts.pages.length > 1;
  const chunks = opts.pages.map((text, i) => ({
    page: paged ? i + 1 : null,
    seq: i,
    text,
    tokens: estimateTokens(text),
  }));
  const tokens = opts.tokens ?? chunks.reduce((sum, c) => sum + c.tokens, 0);
  await t.db
    .insertInto('files')
    .values({
      id,
      user_id: userId,
      stored_name: `${id}.bin`,
      original_name: opts.name,
      mime: paged ? 'application/pdf' : 'text/plain',
      size: opts.pages.join('\n').length,
      created_at: new Date().toISOString(),
      kind: 'document',
      status,
      error_code: opts.errorCode ?? null,
      pages: status === 'ready' ? opts.pages.length : null,
      tokens: status === 'ready' ? tokens : null,
    })
    .execute();
  if (status === 'ready') {
    await t.db.transaction().execute((trx) =>
      new DocumentIndexRepo(t.db).replace(
        trx,
        id,
        opts.pages.map((text, i) => ({ page: i + 1, text })),
        chunks,
      ),
    );
  }
  return id;
}
