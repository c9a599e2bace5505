import type { DocumentPageText } from './document-prompt.js';

/*
 * What a turn needs of the documents area, declared on the chat's side: the documents area
 * builds on the chat (it indexes text the way chat search does), so the chat names only
 * these shapes and the composition root hands in the implementations.
 */

/** A passage ranked for a question. */
export interface FoundPassage {
  chunkId: number;
  fileId: string;
  fileName: string;
  page: number | null;
  text: string;
  tokens: number;
  score: number;
}

/** Ranks passages of documents and knowledge bases (access already checked by the caller). */
export interface PassageSearch {
  search(input: {
    fileIds: readonly string[];
    knowledgeBaseIds: readonly number[];
    query: string;
    limit: number;
  }): Promise<FoundPassage[]>;
}

export interface ChatDocumentSources {
  /** Documents' extracted text, by id, each in page order. */
  text: { pagesOfMany(fileIds: readonly string[]): Promise<Map<string, DocumentPageText[]>> };
  /** Tokens of a text as documents are counted at extraction; absent, the chat's rough estimate. */
  countTokens?: ((text: string) => number) | undefined;
  /** Absent, nothing is found by relevance. */
  retrieval?: PassageSearch | undefined;
  /** Which of these knowledge bases the sender may read now; absent, every one attached. */
  knowledge?: { readableKnowledgeBaseIds(userId: number, ids: readonly number[]): Promise<number[]> } | undefined;
}
