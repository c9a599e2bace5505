import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Database, Db } from '../../db/types.js';
import { toIndexText } from '../chat/search-text.js';
import { cjkPairsOf } from './retrieval-query.js';

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

/** A page of extracted text: PDF page, slide or sheet (1-based; one page for a format without pages). */
export interface DocumentPage {
  page: number;
  text: string;
}

/** A passage to index: its page (null for a format without pages), its order and its size in tokens. */
export interface DocumentChunk {
  page: number | null;
  seq: number;
  text: string;
  tokens: number;
  /**
   * Its full-text index text (search-text.ts), when already made elsewhere: extraction makes
   * it in its worker thread, so a large document's index costs the event loop nothing.
   */
  index?: string;
}

/** Rows written per statement: far under every dialect's parameter limit. */
const WRITE_BATCH = 200;

/**
 * The one writer of a document's extracted text: its pages, its chunks and their full-text
 * entries (table `chunk_search`: FTS5 on SQLite with rowid = chunk id, a tsvector side table
 * on PostgreSQL; the index text is made by search-text.ts, so Chinese is split per
 * character on both, and on PostgreSQL each two consecutive characters are a lexeme too,
 * see retrieval-query.ts). Removal needs nothing here: deleting a file cascades to its pages and
 * chunks, and a chunk's index entry goes with it (SQLite trigger, PostgreSQL cascade).
 */
export class DocumentIndexRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Replaces the document's text with these pages and chunks, in the caller's transaction
   * (`db`), so a reader sees either the old text or the whole new one.
   */
  async replace(db: Db, fileId: string, pages: readonly DocumentPage[], chunks: readonly DocumentChunk[]) {
    await db.deleteFrom('document_chunks').where('file_id', '=', fileId).execute();
    await db.deleteFrom('file_pages').where('file_id', '=', fileId).execute();
    for (let i = 0; i < pages.length; i += WRITE_BATCH) {
      const rows = pages.slice(i, i + WRITE_BATCH).map((p) => ({ file_id: fileId, page: p.page, text: p.text }));
      await db.insertInto('file_pages').values(rows).execute();
    }
    const postgres = isPostgres(db);
    for (let i = 0; i < chunks.length; i += WRITE_BATCH) {
      // Between batches, other work of the process gets its turn (a large document has thousands).
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      const batch = chunks.slice(i, i + WRITE_BATCH);
      const ids = await db
        .insertInto('document_chunks')
        .values(batch.map((c) => ({ file_id: fileId, page: c.page, seq: c.seq, text: c.text, tokens: c.tokens })))
        .returning('id')
        .execute();
      const entries = ids
        .map(({ id }, j) => {
          const chunk = batch[j] as DocumentChunk;
          return { id, body: chunk.index ?? toIndexText(chunk.text) };
        })
        .filter((e) => e.body);
      if (entries.length === 0) continue;
      // One statement per batch.
      const values = sql.join(
        entries.map((e) =>
          postgres
            ? sql`(${e.id}, ${fileId}, to_tsvector('simple', ${e.body}) || array_to_tsvector(${cjkPairsOf(e.body)}::text[]))`
            : sql`(${e.id}, ${e.body})`,
        ),
      );
      await (
        postgres
          ? sql`insert into chunk_search (chunk_id, file_id, tsv) values ${values}`
          : sql`insert into chunk_search (rowid, body) values ${values}`
      ).execute(db);
    }
  }

  /** The document's pages in order (empty until it is ready). */
  pagesOf(fileId: string): Promise<DocumentPage[]> {
    return this.db
      .selectFrom('file_pages')
      .select(['page', 'text'])
      .where('file_id', '=', fileId)
      .orderBy('page')
      .execute();
  }

  /** Pages of several documents at once, by document, each in page order. */
  async pagesOfMany(fileIds: readonly string[]): Promise<Map<string, DocumentPage[]>> {
    const out = new Map<string, DocumentPage[]>(fileIds.map((id) => [id, []]));
    if (fileIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('file_pages')
      .select(['file_id', 'page', 'text'])
      .where('file_id', 'in', fileIds)
      .orderBy('file_id')
      .orderBy('page')
      .execute();
    for (const r of rows) out.get(r.file_id)?.push({ page: r.page, text: r.text });
    return out;
  }
}
