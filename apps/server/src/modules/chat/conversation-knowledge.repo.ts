import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { isForeignKeyViolation } from '../../lib/data/db-errors.js';

/** The knowledge bases each conversation searches on every turn (table conversation_knowledge_bases). */
export class ConversationKnowledgeRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** The ids of each conversation's knowledge bases, ascending; every conversation asked is in the map. */
  async idsOf(conversationIds: readonly string[]): Promise<Map<string, number[]>> {
    const out = new Map<string, number[]>(conversationIds.map((id) => [id, []]));
    if (conversationIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('conversation_knowledge_bases')
      .select(['conversation_id', 'knowledge_base_id'])
      .where('conversation_id', 'in', conversationIds)
      .orderBy('knowledge_base_id')
      .execute();
    for (const r of rows) out.get(r.conversation_id)?.push(r.knowledge_base_id);
    return out;
  }

  /**
   * Replaces the conversation's list with these ids, in one transaction; false (nothing
   * changed) when one of them, or the conversation, was deleted since the caller checked.
   */
  async replace(conversationId: string, ids: readonly number[]): Promise<boolean> {
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('conversation_knowledge_bases').where('conversation_id', '=', conversationId).execute();
        if (ids.length > 0)
          await trx
            .insertInto('conversation_knowledge_bases')
            .values(ids.map((id) => ({ conversation_id: conversationId, knowledge_base_id: id })))
            .execute();
      });
      return true;
    } catch (err) {
      if (isForeignKeyViolation(err)) return false;
      throw err;
    }
  }
}
