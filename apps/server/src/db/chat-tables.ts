import type { FileKind, FileStatus, MessageStatus } from '@aiplatform/contracts';
import type { Generated } from 'kysely';

/*
 * The chat's tables: conversations, their messages (a tree of versions), drafts and the
 * images attached to messages; gathered with the rest into `Database` in types.ts.
 */

export interface FilesTable {
  id: string;
  user_id: number;
  stored_name: string;
  original_name: string;
  mime: string;
  size: number;
  created_at: string;
  /** `image` (sent to models that read images) or `document` (its text extracted). */
  kind: Generated<FileKind>;
  /** Images are `ready` at once; a document is `processing` until its extraction ends. */
  status: Generated<FileStatus>;
  /** Why a document's extraction failed (FILE_UNREADABLE, FILE_ENCRYPTED, FILE_TOO_LARGE). */
  error_code: Generated<string | null>;
  pages: Generated<number | null>;
  tokens: Generated<number | null>;
  /** The extraction queue's lease: the instance working on the file, and until when. */
  job_owner: Generated<string | null>;
  job_lease_until: Generated<string | null>;
  job_attempts: Generated<number>;
  /** The embedding model the document's chunks were settled for (embedded, or skipped unpaid). */
  embed_model: Generated<string | null>;
  /** The embedding queue's lease: the instance embedding the document, and until when. */
  embed_owner: Generated<string | null>;
  embed_lease_until: Generated<string | null>;
}

/** The images of a message, in order (position 0…3). */
export interface MessageFilesTable {
  message_id: string;
  file_id: string;
  position: number;
}

export interface ConversationsTable {
  id: string;
  user_id: number;
  title: string;
  model_name: string;
  system_prompt: string;
  is_pinned: number;
  context_length: number;
  ai_temperature: number;
  priority: number;
  message_count: number;
  total_tokens: number;
  last_message_at: string | null;
  created_at: string;
  updated_at: string;
  /** The version shown (with its newest descendants); null: the newest message's branch. */
  active_message_id: Generated<string | null>;
  /** When its owner deleted it while under legal hold: hidden from them, kept in the database. */
  hidden_at: Generated<string | null>;
}

export interface MessagesTable {
  seq: Generated<number>;
  id: string;
  conversation_id: string;
  role: 'user' | 'assistant';
  content: string;
  /** Legacy single image: emptied by migration 0011 (images are in `message_files`), never written. */
  file_id: Generated<string | null>;
  /** The message this one follows: an answer's question, a question's previous message (null: a first question). */
  parent_id: string | null;
  tokens: number;
  model_name: string | null;
  status: MessageStatus;
  created_at: string;
  /** While streaming: the instance producing the answer (null once settled, and on older rows). */
  owner_id: Generated<string | null>;
  /** While streaming: until when the owner vouches for it; past it, any instance settles the turn. */
  lease_until: Generated<string | null>;
  /** A failed turn's error code: on the question left unanswered, or on an answer broken off. */
  error_code: Generated<string | null>;
  /** An answer's citations as JSON (`Citation[]`): the document passages it was given. */
  citations: Generated<string | null>;
}

export interface ConversationDraftsTable {
  conversation_id: string;
  content: string;
  updated_at: string;
}
