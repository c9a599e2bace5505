import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Clock } from '../../lib/runtime/clock.js';
import type { UsersRepo } from '../users/users.repo.js';
import { ChunkSearchRepo } from './chunk-search.repo.js';
import { KnowledgeAccess } from './knowledge-access.js';
import { KnowledgeBasesRepo } from './knowledge-bases.repo.js';
import { knowledgeBasesRoutes } from './knowledge-bases.routes.js';
import { KnowledgeBasesService } from './knowledge-bases.service.js';
import { type QueryEmbedder, Retrieval } from './retrieval.js';

export interface KnowledgeDeps {
  db: Kysely<Database>;
  users: UsersRepo;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The question's vector by the embedding model set up now; absent: full text alone. */
  embedder?: QueryEmbedder;
}

/** Knowledge bases, who may read them, and retrieval over documents and knowledge bases. */
export function createKnowledgeServices(d: KnowledgeDeps) {
  const repo = new KnowledgeBasesRepo(d.db);
  const bases = new KnowledgeBasesService(repo, d.clock);
  return {
    /** `canReadFile`, `readableKnowledgeBaseIds`: for files and the chat. */
    access: new KnowledgeAccess(repo, d.users),
    bases,
    retrieval: new Retrieval(new ChunkSearchRepo(d.db), d.embedder, d.log),
    routes: knowledgeBasesRoutes(bases),
  };
}
export type KnowledgeServices = ReturnType<typeof createKnowledgeServices>;
