/**
 * Cache keys of documents and knowledge bases. Apart from `query-keys.ts`, which the first
 * bundle loads, so the sign-in page does not carry them.
 */
export const documentKeys = {
  /** A document's state while it is read, shared by its chip and the composer's send check. */
  file: (id: string) => ['chat', 'file', id] as const,
  text: (id: string) => ['chat', 'file', id, 'text'] as const,
  plan: (conversationId: string, fileIds: readonly string[], model: string | undefined) =>
    ['chat', 'document-plan', conversationId, fileIds, model ?? ''] as const,
  /** Prefix of every knowledge-base query: a change refreshes the lists and the open one. */
  knowledge: ['knowledge'] as const,
  knowledgeList: ['knowledge', 'list'] as const,
  knowledgeBase: (id: number) => ['knowledge', 'detail', id] as const,
  knowledgeDocuments: (id: number) => ['knowledge', 'documents', id] as const,
};
