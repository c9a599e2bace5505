import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';

/** What the composer's document plan reads beside the messages: the size of the passages a search would send. */
export class ConversationDocumentsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The mean size in tokens of the passages of these documents and of these knowledge
   * bases' documents (0 when they have none): what a retrieval is estimated from before
   * there is a question to search for.
   */
  async meanPassageTokens(fileIds: readonly string[], knowledgeBaseIds: readonly number[]): Promise<number> {
    if (fileIds.length === 0 && knowledgeBaseIds.length === 0) return 0;
    const row = await this.db
      .selectFrom('document_chunks as c')
      .select((eb) => eb.fn.avg<number | string | null>('c.tokens').as('mean'))
      .where((eb) =>
        eb.or([
          ...(fileIds.length > 0 ? [eb('c.file_id', 'in', fileIds)] : []),
          ...(knowledgeBaseIds.length > 0
            ? [
                eb(
                  'c.file_id',
                  'in',
                  eb
                    .selectFrom('knowledge_base_documents')
                    .select('file_id')
                    .where('knowledge_base_id', 'in', knowledgeBaseIds),
                ),
              ]
            : []),
        ]),
      )
      .executeTakeFirst();
    return Math.round(Number(row?.mean ?? 0));
  }
}
