import type { FileKind, FileStatus } from '@aiplatform/contracts';
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database, Db } from '../../db/types.js';

/** One file of a message (an image or a document), as the presenter and the prompt builder need it. */
export interface AttachedFile {
  message_id: string;
  file_id: string;
  original_name: string;
  kind: FileKind;
  /** A document's extraction: only a `ready` one has text to send. */
  status: FileStatus;
  error_code: string | null;
  stored_name: string;
  mime: string;
  /** Bytes on disk, known without reading them (the prompt's image budget counts them). */
  size: number;
}

/** A file row removed because no message lists it any more; its bytes are to be deleted. */
export interface ReleasedFile {
  id: string;
  stored_name: string;
}

/**
 * The files of messages (`message_files`, in order: images and documents alike) and the files no message uses any
 * more. Every read is one query for a whole set of messages, never one per message.
 */
export class MessageFilesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Lists the files of a new message in the order given. */
  async attach(db: Db, messageId: string, fileIds: readonly string[]): Promise<void> {
    if (fileIds.length === 0) return;
    await db
      .insertInto('message_files')
      .values(fileIds.map((fileId, position) => ({ message_id: messageId, file_id: fileId, position })))
      .execute();
  }

  private attached(db: Db) {
    return db
      .selectFrom('message_files')
      .innerJoin('files', 'files.id', 'message_files.file_id')
      .select([
        'message_files.message_id',
        'message_files.file_id',
        'files.original_name',
        'files.kind',
        'files.status',
        'files.error_code',
        'files.stored_name',
        'files.mime',
        'files.size',
      ])
      .orderBy('message_files.message_id')
      .orderBy('message_files.position');
  }

  /** The images of every message of a conversation, by message id, each list in order. */
  async ofConversation(conversationId: string, db: Db = this.db): Promise<Map<string, AttachedFile[]>> {
    const rows = await this.attached(db)
      .innerJoin('messages', 'messages.id', 'message_files.message_id')
      .where('messages.conversation_id', '=', conversationId)
      .execute();
    return groupByMessage(rows);
  }

  /** The images of the given messages, by message id, each list in order. */
  async ofMessages(messageIds: readonly string[], db: Db = this.db): Promise<Map<string, AttachedFile[]>> {
    if (messageIds.length === 0) return new Map();
    return groupByMessage(await this.attached(db).where('message_files.message_id', 'in', messageIds).execute());
  }

  /** The distinct files listed by any message of a conversation. */
  async fileIdsOfConversation(db: Db, conversationId: string): Promise<string[]> {
    const rows = await db
      .selectFrom('message_files')
      .innerJoin('messages', 'messages.id', 'message_files.message_id')
      .select('message_files.file_id')
      .distinct()
      .where('messages.conversation_id', '=', conversationId)
      .execute();
    return rows.map((r) => r.file_id);
  }

  /**
   * Of `candidates`, removes the file rows no message lists any more. Returns them: the
   * caller deletes their bytes once the transaction has committed.
   */
  async releaseUnused(db: Db, candidates: readonly string[]): Promise<ReleasedFile[]> {
    const released: ReleasedFile[] = [];
    // In slices, so a conversation with very many images stays under the parameter limits.
    for (let i = 0; i < candidates.length; i += SLICE) {
      released.push(...(await this.releaseSlice(db, candidates.slice(i, i + SLICE))));
    }
    return released;
  }

  private async releaseSlice(db: Db, candidates: readonly string[]): Promise<ReleasedFile[]> {
    const unused = await db
      .selectFrom('files')
      .select(['id', 'stored_name'])
      .where('id', 'in', candidates)
      .where(notListed)
      .execute();
    if (unused.length === 0) return [];
    await db
      .deleteFrom('files')
      .where(
        'id',
        'in',
        unused.map((f) => f.id),
      )
      .execute();
    return unused;
  }

  /**
   * Up to `batch` uploads no message lists that were made before `before`: removed, and
   * returned so their bytes can be deleted. An upload is attached within moments of
   * being made, so a day without a message means it was abandoned (or its message was
   * deleted with `keep_images` and it was never sent again).
   */
  async releaseStale(before: string, batch: number): Promise<ReleasedFile[]> {
    return this.db.transaction().execute(async (trx) => {
      const stale = await trx
        .selectFrom('files')
        .select('id')
        .where('created_at', '<', before)
        .where(notListed)
        .limit(batch)
        .execute();
      return this.releaseUnused(
        trx,
        stale.map((f) => f.id),
      );
    });
  }
}

/**
 * A `files` row no message lists and no knowledge base holds: a document kept in a
 * knowledge base stays while it is there, whatever happens to the messages that carried it.
 */
const notListed = (eb: ExpressionBuilder<Database, 'files'>) =>
  eb.and([
    eb.not(
      eb.exists(eb.selectFrom('message_files').select('message_id').whereRef('message_files.file_id', '=', 'files.id')),
    ),
    eb.not(
      eb.exists(
        eb
          .selectFrom('knowledge_base_documents')
          .select('knowledge_base_id')
          .whereRef('knowledge_base_documents.file_id', '=', 'files.id'),
      ),
    ),
  ]);

/** Ids per statement when releasing files. */
const SLICE = 500;

function groupByMessage(rows: AttachedFile[]): Map<string, AttachedFile[]> {
  const byMessage = new Map<string, AttachedFile[]>();
  for (const row of rows) {
    const list = byMessage.get(row.message_id);
    if (list) list.push(row);
    else byMessage.set(row.message_id, [row]);
  }
  return byMessage;
}
