import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/types.js';
import type { Clock } from '../../lib/runtime/clock.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UploadGate } from '../storage/upload-gate.js';
import type { ChatDocumentSources } from '../chat/document-sources.js';
import type { UsersRepo } from '../users/users.repo.js';
import { SecretBox } from '../../lib/auth/secret-box.js';
import { ModelsRepo } from '../models/models.repo.js';
import { DocumentFilesRepo } from './document-files.repo.js';
import { DocumentIndexRepo } from './document-index.repo.js';
import { DocumentJobs } from './document-jobs.js';
import { DocumentJobsRepo } from './document-jobs.repo.js';
import { EmbeddingJobs } from './embedding-jobs.js';
import { EmbeddingJobsRepo } from './embedding-jobs.repo.js';
import { EmbeddingModel } from './embedding-model.js';
import { DEFAULT_EXTRACTION_LIMITS, ExtractionPool } from './extraction-pool.js';
import { FilesService } from './files.service.js';
import { detectOcr } from './ocr-tools.js';
import { createKnowledgeServices } from './knowledge.services.js';
import { countTokens } from './token-count.js';

export interface DocumentDeps {
  db: Kysely<Database>;
  users: UsersRepo;
  settings: SettingsService;
  clock: Clock;
  log: FastifyBaseLogger;
  config: Pick<AppConfig, 'dataDir' | 'answerLeaseMs'>;
  /** The site's storage budget and per-address allowance every upload passes. */
  uploads: UploadGate;
  /** The application secret: embedding models' keys are sealed with it. */
  secret: string;
}

/**
 * Wires the documents area; the composition root calls this once, before the chat's services,
 * then starts `jobs` and `embeddings`, and calls `close` before the database closes.
 */
export function createDocumentServices(d: DocumentDeps) {
  const uploadsDir = path.join(d.config.dataDir, 'uploads');
  const index = new DocumentIndexRepo(d.db);
  // Scanned PDF pages are read by OCR when the machine has it; said once in the log.
  const pool = new ExtractionPool(DEFAULT_EXTRACTION_LIMITS, detectOcr(d.log));
  const jobs = new DocumentJobs(
    new DocumentJobsRepo(d.db, index),
    pool,
    uploadsDir,
    d.clock,
    d.log,
    // An instance vouches for a document it reads as long as for an answer it streams.
    d.config.answerLeaseMs,
  );
  const files = new FilesService(uploadsDir, new DocumentFilesRepo(d.db), index, d.settings, d.clock, d.uploads, () =>
    jobs.kick(),
  );
  // Chunks get embeddings of the model set up in `knowledge.embedding_model`; questions too.
  const embeddingModel = new EmbeddingModel(d.settings, new ModelsRepo(d.db), new SecretBox(d.secret));
  const embeddings = new EmbeddingJobs(
    new EmbeddingJobsRepo(d.db),
    embeddingModel,
    d.clock,
    d.log,
    d.config.answerLeaseMs,
  );
  // Knowledge bases, who reads them, and retrieval (knowledge.services.ts).
  const knowledge = createKnowledgeServices({ ...d, embedder: embeddingModel });
  files.allowReaders((userId, fileId) => knowledge.access.canReadFile(userId, fileId));
  /**
   * What a chat turn reads of documents: their text, passages found by relevance, readable
   * knowledge bases, and token counts made as the extraction makes them.
   */
  const forChat: ChatDocumentSources = {
    text: index,
    retrieval: knowledge.retrieval,
    knowledge: knowledge.access,
    countTokens,
  };
  return {
    index,
    retrieval: knowledge.retrieval,
    knowledge,
    forChat,
    files,
    jobs,
    embeddings,
    /** Stops taking documents and ends the workers (before the database closes). */
    async close(): Promise<void> {
      await Promise.all([jobs.stop(), embeddings.stop()]);
      await pool.close();
    },
  };
}
export type DocumentServices = ReturnType<typeof createDocumentServices>;
