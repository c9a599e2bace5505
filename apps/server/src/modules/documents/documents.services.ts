import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { ChatDocumentSources } from '../chat/document-sources.js';
import { ChunkSearchRepo } from './chunk-search.repo.js';
import { DocumentIndexRepo } from './document-index.repo.js';
import { Retrieval } from './retrieval.js';

export interface DocumentDeps {
  db: Kysely<Database>;
}

/** Wires the documents area; the composition root calls this once, before the chat's services. */
export function createDocumentServices(d: DocumentDeps) {
  const index = new DocumentIndexRepo(d.db);
  const retrieval = new Retrieval(new ChunkSearchRepo(d.db));
  /** What a chat turn reads of documents: their whole text, and passages found by relevance. */
  const forChat: ChatDocumentSources = { text: index, retrieval };
  return { index, retrieval, forChat };
}
export type DocumentServices = ReturnType<typeof createDocumentServices>;
