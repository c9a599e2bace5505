import { type Insertable, type Kysely, sql } from 'kysely';
import type { Database, MessageRow, MessagesTable } from '../../db/types.js';
import type { Db } from '../users/users.repo.js';
import { indexMessage } from './message-search.repo.js';

/** A message with the name of its attached file, as the presenter needs it. */
export type MessageWithFile = MessageRow & { file_name: string | null };

/** A past message as the prompt builder needs it, with the stored image to attach. */
export interface HistoryMessage {
  role: 'user' | 'assistant';
  content: string;
  file_id: string | null;
  file_stored_name: string | null;
  file_mime: string | null;
}

export class MessagesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  private withFile(db: Db) {
    return db
      .selectFrom('messages')
      .leftJoin('files', 'files.id', 'messages.file_id')
      .selectAll('messages')
      .select('files.original_name as file_name');
  }

  /** The whole conversation, oldest first. */
  listFor(conversationId: string): Promise<MessageWithFile[]> {
    return this.withFile(this.db)
      .where('messages.conversation_id', '=', conversationId)
      .orderBy('messages.seq')
      .execute();
  }

  findOne(conversationId: string, id: string, db: Db = this.db): Promise<MessageWithFile | undefined> {
    return this.withFile(db)
      .where('messages.conversation_id', '=', conversationId)
      .where('messages.id', '=', id)
      .executeTakeFirst();
  }

  /**
   * The last `limit` finished messages, oldest first. Answers still streaming, failed or
   * empty are left out: they are not part of what was said.
   */
  async history(conversationId: string, limit: number): Promise<HistoryMessage[]> {
    if (limit <= 0) return [];
    const rows = await this.db
      .selectFrom('messages')
      .leftJoin('files', 'files.id', 'messages.file_id')
      .select([
        'messages.role',
        'messages.content',
        'messages.file_id',
        'files.stored_name as file_stored_name',
        'files.mime as file_mime',
      ])
      .where('messages.conversation_id', '=', conversationId)
      .where('messages.status', 'in', ['complete', 'stopped'])
      .where((eb) => eb.or([eb('messages.content', '!=', ''), eb('messages.file_id', 'is not', null)]))
      .orderBy('messages.seq', 'desc')
      .limit(limit)
      .execute();
    return rows.reverse();
  }

  /** Inserts in order: the question gets the lower `seq`. */
  async insertPair(db: Db, question: Insertable<MessagesTable>, answer: Insertable<MessagesTable>): Promise<void> {
    await db.insertInto('messages').values(question).execute();
    await db.insertInto('messages').values(answer).execute();
    await indexMessage(db, question.id, question.content ?? '', true);
    // The answer is a placeholder now; it is indexed when finished.
    if (answer.content) await indexMessage(db, answer.id, answer.content, true);
  }

  async finishAnswer(
    db: Db,
    id: string,
    patch: { content: string; tokens: number; status: MessageRow['status'] },
  ): Promise<void> {
    await db.updateTable('messages').set(patch).where('id', '=', id).execute();
    await indexMessage(db, id, patch.content);
  }

  /** The question an answer replies to; older rows without a link fall back to the user message just before it. */
  async questionOf(db: Db, answer: MessageRow): Promise<string | undefined> {
    let q = db
      .selectFrom('messages')
      .select('id')
      .where('conversation_id', '=', answer.conversation_id)
      .where('role', '=', 'user');
    q = answer.parent_id
      ? q.where('id', '=', answer.parent_id)
      : q.where('seq', '<', answer.seq).orderBy('seq', 'desc');
    return (await q.limit(1).executeTakeFirst())?.id;
  }

  /** Deletes messages of one conversation; returns how many were removed. */
  async deleteIds(db: Db, conversationId: string, ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const r = await db
      .deleteFrom('messages')
      .where('conversation_id', '=', conversationId)
      .where('id', 'in', ids)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /** Answers still marked streaming that began before `before`: their process stopped without finishing them. */
  findInterrupted(before: string) {
    return this.db
      .selectFrom('messages')
      .innerJoin('conversations', 'conversations.id', 'messages.conversation_id')
      .innerJoin('users', 'users.id', 'conversations.user_id')
      .select([
        'messages.id as answerId',
        'messages.parent_id as questionId',
        'messages.conversation_id as conversationId',
        'messages.created_at as createdAt',
        'conversations.user_id as userId',
        'users.group_id as groupId',
        sql<string>`coalesce(messages.model_name, conversations.model_name)`.as('model'),
      ])
      .where('messages.status', '=', 'streaming')
      .where('messages.created_at', '<', before)
      .execute();
  }

  async deleteAll(db: Db, conversationId: string): Promise<void> {
    await db.deleteFrom('messages').where('conversation_id', '=', conversationId).execute();
  }
}
