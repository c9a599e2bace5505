import crypto from 'node:crypto';
import type { FileStatus } from '@aiplatform/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../src/db/types.js';
import {
  type DocumentChunk,
  DocumentIndexRepo,
  type DocumentPage,
} from '../src/modules/documents/document-index.repo.js';

/*
 * Documents written straight into the index, as the extraction leaves them: pages of text
 * and their chunks (two per page here), for tests of retrieval and knowledge bases.
 */

const EN = [
  'The supplier shall deliver the goods to the site named in the order within the agreed time.',
  'Invoices are payable within thirty days of receipt unless the parties agree otherwise in writing.',
  'Each party keeps the other party informed of any change that may affect the delivery schedule.',
  'The buyer inspects the goods on arrival and reports visible damage to the carrier at once.',
  'Maintenance of the equipment follows the manual supplied with it and the local safety rules.',
  'Training sessions for the operators are held at the start of each quarter at the main plant.',
  'The parties meet every month to review quality figures, open issues and planned changes.',
  'Spare parts are kept in stock for the models listed in the annex for at least five years.',
  'Prices are fixed for the first year and reviewed afterwards against the published index.',
  'Any notice under this agreement is given in writing to the addresses stated above.',
];
const ZH = [
  '合同双方应当按照约定履行各自的义务。',
  '供应商应在订单约定的时间内将货物送到指定地点。',
  '买方收到货物后应及时检查并记录发现的问题。',
  '设备的日常维护应按照随附的说明书进行。',
  '每季度开始时在总厂为操作人员组织培训。',
  '双方每月开会一次，检查质量数据和未解决的问题。',
  '价格在第一年内固定，之后根据公布的指数调整。',
  '本协议项下的通知应以书面形式发送至上述地址。',
];

/** A made-up contract of `count` pages in English and Chinese; `facts` puts sentences on given pages. */
export function contractPages(count: number, facts: Record<number, string> = {}): DocumentPage[] {
  let seed = count * 7919;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed;
  };
  return Array.from({ length: count }, (_, i) => {
    const page = i + 1;
    const lines: string[] = [];
    for (let k = 0; k < 6; k++) lines.push(EN[next() % EN.length]!);
    for (let k = 0; k < 3; k++) lines.push(ZH[next() % ZH.length]!);
    if (facts[page]) lines.splice(4, 0, facts[page]);
    return { page, text: lines.join('\n') };
  });
}

/** Two chunks per page: its first and second half of lines. */
export function simpleChunks(pages: readonly DocumentPage[], paged = true): DocumentChunk[] {
  let seq = 0;
  return pages.flatMap((p) => {
    const lines = p.text.split('\n');
    const half = Math.ceil(lines.length / 2);
    return [lines.slice(0, half), lines.slice(half)]
      .filter((part) => part.length > 0)
      .map((part) => {
        const text = part.join('\n');
        return { page: paged ? p.page : null, seq: seq++, text, tokens: Math.ceil(text.length / 4) };
      });
  });
}

/** How a document inserted by `insertDocument` differs from a ready PDF with its pages' tokens. */
export interface InsertedDocumentOptions {
  status?: FileStatus;
  errorCode?: string;
  /** The document's total tokens, when a test needs an exact number. */
  tokens?: number;
  mime?: string;
}

/**
 * A document of `userId` with these pages indexed (when ready), as extraction leaves it;
 * returns its id.
 */
export async function insertDocument(
  db: Kysely<Database>,
  userId: number,
  name: string,
  pages: readonly DocumentPage[],
  chunks: readonly DocumentChunk[] = simpleChunks(pages),
  opts: InsertedDocumentOptions = {},
): Promise<string> {
  const id = crypto.randomUUID();
  const status = opts.status ?? 'ready';
  const ready = status === 'ready';
  // One transaction, as extraction stores a document: a job polling meanwhile never sees a
  // ready document without its passages (and settles it with nothing to embed).
  await db.transaction().execute(async (tx) => {
    await tx
      .insertInto('files')
      .values({
        id,
        user_id: userId,
        stored_name: `${id}.bin`,
        original_name: name,
        mime: opts.mime ?? 'application/pdf',
        size: pages.reduce((n, p) => n + p.text.length, 0),
        created_at: new Date().toISOString(),
        kind: 'document',
        status,
        error_code: opts.errorCode ?? null,
        pages: ready ? pages.length : null,
        tokens: ready ? (opts.tokens ?? chunks.reduce((n, c) => n + c.tokens, 0)) : null,
      })
      .execute();
    if (ready) await new DocumentIndexRepo(db).replace(tx, id, pages, chunks);
  });
  return id;
}

/** A personal knowledge base of `userId` holding these documents, written straight to the database; returns its id. */
export async function insertKnowledgeBase(
  db: Kysely<Database>,
  userId: number,
  fileIds: readonly string[],
  name = 'kb',
): Promise<number> {
  const now = new Date().toISOString();
  const { id } = await db
    .insertInto('knowledge_bases')
    .values({
      name,
      description: '',
      scope: 'personal',
      user_id: userId,
      group_id: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (fileIds.length > 0)
    await db
      .insertInto('knowledge_base_documents')
      .values(fileIds.map((file_id) => ({ knowledge_base_id: id, file_id, created_at: now })))
      .execute();
  return id;
}
