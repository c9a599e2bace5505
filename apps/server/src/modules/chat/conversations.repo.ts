import { type Insertable, type Kysely, type Updateable, sql } from 'kysely';
import type { ConversationRow, ConversationsTable, Database, Db } from '../../db/types.js';
import { reusableQuery } from '../../db/reusable-query.js';
import { lockOwner } from '../users/owner-lock.repo.js';

/** What a page of the list holds: every column but the owner, whom the query already names, and the version shown. */
export type ListedConversation = Omit<ConversationRow, 'user_id' | 'active_message_id' | 'hidden_at'>;
const LISTED_COLUMNS = [
  'id',
  'title',
  'model_name',
  'system_prompt',
  'is_pinned',
  'context_length',
  'ai_temperature',
  'priority',
  'message_count',
  'total_tokens',
  'last_message_at',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof ListedConversation)[];

/**
 * Conversations and their drafts. Every read and write names the owner, so ownership cannot be
 * forgotten; a conversation its owner deleted while under legal hold (`hidden_at`) is not theirs
 * to read any more: the owner's reads leave it out.
 */
export class ConversationsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  findOwned(id: string, userId: number, db: Db = this.db): Promise<ConversationRow | undefined> {
    return db
      .selectFrom('conversations')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('hidden_at', 'is', null)
      .executeTakeFirst();
  }

  async insert(row: Insertable<ConversationsTable>): Promise<void> {
    await this.db.insertInto('conversations').values(row).execute();
  }

  /**
   * Inserts the conversation unless its owner already has `max` of them; false when
   * refused. Counted under the owner's row lock, so simultaneous creations cannot pass
   * the limit together.
   */
  async insertWithinQuota(row: Insertable<ConversationsTable>, max: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await lockOwner(trx, row.user_id);
      const r = await trx
        .selectFrom('conversations')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', row.user_id)
        // Hidden ones are kept for a legal hold, no longer the owner's: they take no place.
        .where('hidden_at', 'is', null)
        .executeTakeFirstOrThrow();
      if (Number(r.n) >= max) return false;
      await trx.insertInto('conversations').values(row).execute();
      return true;
    });
  }

  async update(id: string, userId: number, patch: Updateable<ConversationsTable>): Promise<void> {
    await this.db.updateTable('conversations').set(patch).where('id', '=', id).where('user_id', '=', userId).execute();
  }

  async delete(id: string, userId: number, db: Db = this.db): Promise<boolean> {
    const r = await db
      .deleteFrom('conversations')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** Hides the conversation from its owner (deleted under legal hold): kept, but no longer theirs to see. */
  async hide(db: Db, id: string, userId: number, now: string): Promise<boolean> {
    const r = await db
      .updateTable('conversations')
      .set({ hidden_at: now })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('hidden_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** One page, pinned by priority first, then the most recently active (index conversations_user_order_idx). */
  async page(userId: number, page: number, limit: number): Promise<{ rows: ListedConversation[]; total: number }> {
    const rows = await this.pageRows(this.db, userId, limit, (page - 1) * limit);
    // A first page that is not full holds everything: the count query would only repeat it.
    if (page === 1 && rows.length < limit) return { rows, total: rows.length };
    const [count] = await this.countOwned(this.db, userId);
    return { rows, total: Number(count?.n ?? 0) };
  }

  /** The sidebar asks for these on every visit: their SQL is built once. */
  private readonly pageRows = reusableQuery((userId: number, limit: number, offset: number) =>
    this.db
      .selectFrom('conversations')
      .select(LISTED_COLUMNS)
      .where('user_id', '=', userId)
      .where('hidden_at', 'is', null)
      .orderBy('priority', 'desc')
      .orderBy('updated_at', 'desc')
      .orderBy('id')
      .limit(limit)
      .offset(offset),
  );
  private readonly countOwned = reusableQuery((userId: number) =>
    this.db
      .selectFrom('conversations')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', userId)
      .where('hidden_at', 'is', null),
  );

  /**
   * A turn added `added` messages (a question and its answer placeholder, or an answer
   * alone); its answer becomes the version shown; an unnamed conversation takes `title`.
   */
  async recordSend(db: Db, id: string, now: string, title: string, added: number, activeId: string): Promise<void> {
    await db
      .updateTable('conversations')
      .set({
        message_count: sql`message_count + ${added}`,
        last_message_at: now,
        updated_at: now,
        title: sql`case when title = '' then ${title} else title end`,
        active_message_id: activeId,
      })
      .where('id', '=', id)
      .execute();
  }

  /** Shows `to` instead of `from` when `from` is the version shown (it is going away). */
  async moveActive(db: Db, id: string, from: string, to: string | null): Promise<void> {
    await db
      .updateTable('conversations')
      .set({ active_message_id: to })
      .where('id', '=', id)
      .where('active_message_id', '=', from)
      .execute();
  }

  /** Shows the branch of `messageId` (with its newest descendants). */
  async setActive(db: Db, id: string, messageId: string | null): Promise<void> {
    await db.updateTable('conversations').set({ active_message_id: messageId }).where('id', '=', id).execute();
  }

  /** Sets a title only while the conversation still has `expected` (a rename meanwhile wins). */
  async replaceTitle(id: string, expected: string, title: string): Promise<void> {
    await this.db
      .updateTable('conversations')
      .set({ title })
      .where('id', '=', id)
      .where('title', '=', expected)
      .execute();
  }

  async addTokens(db: Db, id: string, tokens: number, now: string): Promise<void> {
    await db
      .updateTable('conversations')
      .set({ total_tokens: sql`total_tokens + ${tokens}`, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  /** `removed` messages are gone; the count never drops below zero. Returns the count after, null when nothing changed. */
  async removeMessages(db: Db, id: string, removed: number, now: string): Promise<number | null> {
    if (removed <= 0) return null;
    const row = await db
      .updateTable('conversations')
      .set({
        message_count: sql`case when message_count > ${removed} then message_count - ${removed} else 0 end`,
        updated_at: now,
      })
      .where('id', '=', id)
      .returning('message_count')
      .executeTakeFirst();
    return row?.message_count ?? null;
  }

  async resetCounters(db: Db, id: string, now: string): Promise<void> {
    await db
      .updateTable('conversations')
      .set({ message_count: 0, total_tokens: 0, last_message_at: null, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  findDraft(conversationId: string) {
    return this.db
      .selectFrom('conversation_drafts')
      .select(['content', 'updated_at'])
      .where('conversation_id', '=', conversationId)
      .executeTakeFirst();
  }

  async saveDraft(conversationId: string, content: string, now: string): Promise<void> {
    await this.db
      .insertInto('conversation_drafts')
      .values({ conversation_id: conversationId, content, updated_at: now })
      .onConflict((oc) => oc.column('conversation_id').doUpdateSet({ content, updated_at: now }))
      .execute();
  }

  async deleteDraft(conversationId: string, db: Db = this.db): Promise<void> {
    await db.deleteFrom('conversation_drafts').where('conversation_id', '=', conversationId).execute();
  }
}
