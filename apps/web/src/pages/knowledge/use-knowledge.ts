import type { CreateKnowledgeBaseBody, KnowledgeDocument, UpdateKnowledgeBaseBody } from '@aiplatform/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { knowledgeApi } from '../../api/documents';
import { documentKeys } from '../../api/document-keys';

export function useKnowledgeBases() {
  return useQuery({ queryKey: documentKeys.knowledgeList, queryFn: knowledgeApi.list });
}

export function useKnowledgeBase(id: number) {
  return useQuery({ queryKey: documentKeys.knowledgeBase(id), queryFn: () => knowledgeApi.get(id) });
}

/** A knowledge base's documents, asked again while any of them is still being read. */
export function useKnowledgeDocuments(id: number) {
  return useQuery({
    queryKey: documentKeys.knowledgeDocuments(id),
    queryFn: () => knowledgeApi.documents(id),
    refetchInterval: (query: { state: { data: KnowledgeDocument[] | undefined } }) =>
      query.state.data?.some((d) => d.status === 'processing') ? 2000 : false,
  });
}

/** Every change refreshes the lists, the open knowledge base and its documents. */
export function useKnowledgeChanges() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: documentKeys.knowledge });
  return {
    create: useMutation({
      mutationFn: (body: CreateKnowledgeBaseBody) => knowledgeApi.create(body),
      onSuccess: refresh,
    }),
    update: useMutation({
      mutationFn: ({ id, body }: { id: number; body: UpdateKnowledgeBaseBody }) => knowledgeApi.update(id, body),
      onSuccess: refresh,
    }),
    // The page of a deleted knowledge base is left at once: only the lists are asked again.
    remove: useMutation({
      mutationFn: (id: number) => knowledgeApi.remove(id),
      onSuccess: () => client.invalidateQueries({ queryKey: documentKeys.knowledgeList }),
    }),
    addDocument: useMutation({
      mutationFn: ({ id, fileId }: { id: number; fileId: string }) => knowledgeApi.addDocument(id, fileId),
      onSuccess: refresh,
    }),
    removeDocument: useMutation({
      mutationFn: ({ id, fileId }: { id: number; fileId: string }) => knowledgeApi.removeDocument(id, fileId),
      onSuccess: refresh,
    }),
  };
}
