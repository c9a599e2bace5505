import { sql } from 'kysely';
import type { Db, MessageRow } from '../../db/types.js';

/** A message's place in its conversation, without its text. */
export interface MessageNode {
  id: string;
  parent_id: string | null;
  seq: number;
  role: MessageRow['role'];
  status: MessageRow['status'];
  /** 1 when it holds text or images (an empty message says nothing to the model). */
  says: number;
}

/**
 * The parent links of a conversation's messages as turns change them: a question's answers,
 * what hangs under a turn taken out or answered again, and a question's answered state.
 * (`MessageBranches` builds the whole tree from `nodes`.)
 */
export class MessageTreeRepo {
  /** Every message of the conversation: ids, links and states, no text. */
  async nodes(db: Db, conversationId: string): Promise<MessageNode[]> {
    const rows = await db
      .selectFrom('messages')
      .select(['id', 'parent_id', 'seq', 'role', 'status'])
      .select(
        sql<number>`case when content <> '' or exists (select 1 from message_files f where f.message_id = messages.id) then 1 else 0 end`.as(
          'says',
        ),
      )
      .where('conversation_id', '=', conversationId)
      .execute();
    return rows.map((r) => ({ ...r, seq: Number(r.seq), says: Number(r.says) }));
  }

  /** The text of each message named (read only for what the model is sent). */
  async contents(db: Db, ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await db.selectFrom('messages').select(['id', 'content']).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, r.content]));
  }

  /** The newest answer of a question other than `except` (in any state), or undefined. */
  async newestAnswerOf(
    db: Db,
    conversationId: string,
    questionId: string,
    except: string,
  ): Promise<string | undefined> {
    const row = await db
      .selectFrom('messages')
      .select('id')
      .where('conversation_id', '=', conversationId)
      .where('parent_id', '=', questionId)
      .where('role', '=', 'assistant')
      .where('id', '!=', except)
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.id;
  }

  /** Hangs the children of `from` (other than `to` itself) under `to`: a turn taken out of, or put into, a branch. */
  async reparent(db: Db, conversationId: string, from: string[], to: string | null): Promise<void> {
    if (from.length === 0) return;
    let q = db
      .updateTable('messages')
      .set({ parent_id: to })
      .where('conversation_id', '=', conversationId)
      .where('parent_id', 'in', from);
    if (to !== null) q = q.where('id', '!=', to);
    await q.execute();
  }

  /**
   * A question whose answer never came: kept, and left out of the model's context from
   * now on. A question that still holds another answer (an earlier version) stays as it is.
   * `failure`: why the turn failed and the model it was sent to, kept for a reload to show.
   */
  async markUnanswered(
    db: Db,
    conversationId: string,
    questionId: string,
    failure: { errorCode: string | null; modelName: string } | undefined = undefined,
  ): Promise<void> {
    if (!questionId) return;
    await db
      .updateTable('messages')
      .set({
        status: 'unanswered',
        ...(failure ? { error_code: failure.errorCode, model_name: failure.modelName } : {}),
      })
      .where('conversation_id', '=', conversationId)
      .where('id', '=', questionId)
      .where('role', '=', 'user')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('messages as answer')
              .select('answer.seq')
              .whereRef('answer.parent_id', '=', 'messages.id')
              .where('answer.role', '=', 'assistant'),
          ),
        ),
      )
      .execute();
  }

  /**
   * A question answered again is part of the conversation again (its new answer is on
   * its way). Returns whether it had been left unanswered.
   */
  async markAnswered(db: Db, conversationId: string, questionId: string): Promise<boolean> {
    const r = await db
      .updateTable('messages')
      // No longer a failed turn: its reason and the model it failed on go.
      .set({ status: 'complete', error_code: null, model_name: null })
      .where('conversation_id', '=', conversationId)
      .where('id', '=', questionId)
      .where('status', '=', 'unanswered')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }
}
