import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Clock } from '../../lib/runtime/clock.js';
import type { ChatDocumentSources } from '../chat/document-sources.js';
import type { UsersRepo } from '../users/users.repo.js';
import { DocumentIndexRepo } from './document-index.repo.js';
import { createKnowledgeServices } from './knowledge.services.js';

export interface DocumentDeps {
  db: Kysely<Database>;
  users: UsersRepo;
  clock: Clock;
  log: FastifyBaseLogger;
}

/** Wires the documents area; the composition root calls this once, before the chat's services. */
export function createDocumentServices(d: DocumentDeps) {
  const index = new DocumentIndexRepo(d.db);
  // Knowledge bases, who reads them, and retrieval (knowledge.services.ts).
  const knowledge = createKnowledgeServices(d);
  /** What a chat turn reads of documents: their text, passages found by relevance, readable knowledge bases. */
  const forChat: ChatDocumentSources = { text: index, retrieval: knowledge.retrieval, knowledge: knowledge.access };
  return { index, forChat, knowledge, retrieval: knowledge.retrieval };
}
export type DocumentServices = ReturnType<typeof createDocumentServices>;
