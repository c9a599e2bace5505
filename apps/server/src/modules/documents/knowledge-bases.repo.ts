import { isForeignKeyViolation } from '../../lib/data/db-errors.js';
import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type { Database, Db, FileRow } from '../../db/types.js';
import type { KnowledgeBasesTable } from '../../db/document-tables.js';

export type KnowledgeBaseRow = Selectable<KnowledgeBasesTable> & { document_count: number };

/** Whose knowledge bases a reader sees: their own personal ones and their group's (or every group's). */
export interface KnowledgeReader {
  userId: number;
  groupId: number | null;
  everyGroup: boolean;
}

/** A document of a knowledge base: its file row and when it was added. */
export type KnowledgeDocumentRow = FileRow & { added_at: string };

type Eb = ExpressionBuilder<Database, 'knowledge_bases'>;

/** The knowledge bases a reader may read (the rule of policies/knowledge-bases.ts, as SQL). */
function readableBy(eb: Eb, r: KnowledgeReader) {
  const personal = eb.and([eb('knowledge_bases.scope', '=', 'personal'), eb('knowledge_bases.user_id', '=', r.userId)]);
  if (r.everyGroup) return eb.or([personal, eb('knowledge_bases.scope', '=', 'group')]);
  if (r.groupId === null) return personal;
  return eb.or([
    personal,
    eb.and([eb('knowledge_bases.scope', '=', 'group'), eb('knowledge_bases.group_id', '=', r.groupId)]),
  ]);
}

/** Knowledge bases, their documents, and which of them a reader may read. */
export class KnowledgeBasesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  private withCount(db: Db = this.db) {
    return db
      .selectFrom('knowledge_bases')
      .selectAll('knowledge_bases')
      .select((eb) =>
        eb
          .selectFrom('knowledge_base_documents as d')
          .whereRef('d.knowledge_base_id', '=', 'knowledge_bases.id')
          .select((e) => e.fn.countAll<number | string>().as('n'))
          .as('document_count'),
      );
  }

  private static counted(
    row: Omit<KnowledgeBaseRow, 'document_count'> & { document_count: unknown },
  ): KnowledgeBaseRow {
    return { ...row, document_count: Number(row.document_count ?? 0) };
  }

  async find(id: number): Promise<KnowledgeBaseRow | undefined> {
    const row = await this.withCount().where('knowledge_bases.id', '=', id).executeTakeFirst();
    return row && KnowledgeBasesRepo.counted(row);
  }

  /** What the reader may read, newest first. */
  async listReadable(r: KnowledgeReader): Promise<KnowledgeBaseRow[]> {
    const rows = await this.withCount()
      .where((eb) => readableBy(eb, r))
      .orderBy('knowledge_bases.created_at', 'desc')
      .orderBy('knowledge_bases.id', 'desc')
      .execute();
    return rows.map((row) => KnowledgeBasesRepo.counted(row));
  }

  /** Which of these ids the reader may read (unknown ids are simply absent). */
  async readableIds(r: KnowledgeReader, ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('knowledge_bases')
      .select('id')
      .where('id', 'in', ids)
      .where((eb) => readableBy(eb, r))
      .execute();
    return rows.map((row) => row.id);
  }

  /** True when the file is a document of some knowledge base the reader may read. */
  async fileReadableThroughBase(r: KnowledgeReader, fileId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('knowledge_bases')
      .innerJoin('knowledge_base_documents as d', 'd.knowledge_base_id', 'knowledge_bases.id')
      .select('knowledge_bases.id')
      .where('d.file_id', '=', fileId)
      .where((eb) => readableBy(eb, r))
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async insert(row: Omit<Selectable<KnowledgeBasesTable>, 'id'>): Promise<number> {
    const { id } = await this.db.insertInto('knowledge_bases').values(row).returning('id').executeTakeFirstOrThrow();
    return id;
  }

  async update(id: number, patch: { name?: string; description?: string; updated_at: string }): Promise<void> {
    await this.db.updateTable('knowledge_bases').set(patch).where('id', '=', id).execute();
  }

  /** Deletes it; its documents list and conversations' links to it go with it (cascade), the files stay. */
  async remove(id: number): Promise<boolean> {
    const r = await this.db.deleteFrom('knowledge_bases').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async groupExists(groupId: number): Promise<boolean> {
    return (
      (await this.db.selectFrom('user_groups').select('id').where('id', '=', groupId).executeTakeFirst()) !== undefined
    );
  }

  /** The file, when it is this user's. */
  ownedFile(fileId: string, userId: number): Promise<FileRow | undefined> {
    return this.db
      .selectFrom('files')
      .selectAll()
      .where('id', '=', fileId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /** The documents, most recently added first. */
  documents(id: number): Promise<KnowledgeDocumentRow[]> {
    return this.db
      .selectFrom('knowledge_base_documents as d')
      .innerJoin('files', 'files.id', 'd.file_id')
      .selectAll('files')
      .select('d.created_at as added_at')
      .where('d.knowledge_base_id', '=', id)
      .orderBy('d.created_at', 'desc')
      .orderBy('files.id')
      .execute();
  }

  /**
   * Adds a document (adding it again changes nothing); returns when it was added, or null
   * when the knowledge base or the file was deleted between the caller's checks and now.
   */
  async addDocument(id: number, fileId: string, now: string): Promise<string | null> {
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('knowledge_base_documents')
          .values({ knowledge_base_id: id, file_id: fileId, created_at: now })
          .onConflict((oc) => oc.columns(['knowledge_base_id', 'file_id']).doNothing())
          .execute();
        await trx.updateTable('knowledge_bases').set({ updated_at: now }).where('id', '=', id).execute();
      });
    } catch (err) {
      if (isForeignKeyViolation(err)) return null;
      throw err;
    }
    const row = await this.db
      .selectFrom('knowledge_base_documents')
      .select('created_at')
      .where('knowledge_base_id', '=', id)
      .where('file_id', '=', fileId)
      .executeTakeFirst();
    // Gone again already: removed by a deletion that came right after the insert.
    return row?.created_at ?? null;
  }

  /** Takes a document out; false when it was not in. */
  async removeDocument(id: number, fileId: string, now: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const r = await trx
        .deleteFrom('knowledge_base_documents')
        .where('knowledge_base_id', '=', id)
        .where('file_id', '=', fileId)
        .executeTakeFirst();
      if (Number(r.numDeletedRows) === 0) return false;
      await trx.updateTable('knowledge_bases').set({ updated_at: now }).where('id', '=', id).execute();
      return true;
    });
  }
}
