import { type RawBuilder, sql } from 'kysely';

/** Where a search may look: these documents and every document of these knowledge bases. */
export interface SearchScope {
  fileIds: readonly string[];
  knowledgeBaseIds: readonly number[];
}

/** The ids of the documents a scope covers, as a subquery. */
export function scopeFiles(scope: SearchScope): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [];
  if (scope.fileIds.length > 0)
    parts.push(sql`select id as file_id from files where id in (${sql.join(scope.fileIds.map((id) => sql`${id}`))})`);
  if (scope.knowledgeBaseIds.length > 0)
    parts.push(
      sql`select file_id from knowledge_base_documents where knowledge_base_id in (${sql.join(
        scope.knowledgeBaseIds.map((id) => sql`${id}`),
      )})`,
    );
  return sql.join(parts, sql` union `);
}
