import type { KnowledgeBaseScope } from '@aiplatform/contracts';
import type { Generated } from 'kysely';

/*
 * Documents' extracted text and passages, and knowledge bases (migration 0022); gathered with
 * the rest into `Database` in types.ts. The files themselves are rows of `files`.
 */

/** A document's text, one row per page (PDF page, slide, sheet; one row for a format without pages). */
export interface FilePagesTable {
  file_id: string;
  page: number;
  text: string;
}

/** A passage retrieval ranks. `page` is null for a format without pages. */
export interface DocumentChunksTable {
  id: Generated<number>;
  file_id: string;
  page: number | null;
  seq: number;
  text: string;
  tokens: number;
  /** float32 little-endian, when an embedding model was set up; with the model that made it. */
  embedding: Generated<Buffer | null>;
  embedding_model: Generated<string | null>;
}

/** PostgreSQL's full-text side table of the chunks (SQLite: the FTS5 table `chunk_search`, not typed). */
export interface ChunkSearchTable {
  chunk_id: number;
  file_id: string;
  tsv: string;
}

export interface KnowledgeBasesTable {
  id: Generated<number>;
  name: string;
  description: string;
  scope: KnowledgeBaseScope;
  /** Who made it: the owner of a personal one. */
  user_id: number;
  /** The group a `group` knowledge base belongs to (null for a personal one). */
  group_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface KnowledgeBaseDocumentsTable {
  knowledge_base_id: number;
  file_id: string;
  created_at: string;
}

export interface ConversationKnowledgeBasesTable {
  conversation_id: string;
  knowledge_base_id: number;
}
