import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { ChatDocumentSources } from '../chat/document-sources.js';
import { DocumentIndexRepo } from './document-index.repo.js';

export interface DocumentDeps {
  db: Kysely<Database>;
}

/** Wires the documents area; the composition root calls this once, before the chat's services. */
export function createDocumentServices(d: DocumentDeps) {
  const index = new DocumentIndexRepo(d.db);
  /** What a chat turn reads of documents: their text, and passages found by relevance once search exists. */
  const forChat: ChatDocumentSources = { text: index };
  return { index, forChat };
}
export type DocumentServices = ReturnType<typeof createDocumentServices>;
