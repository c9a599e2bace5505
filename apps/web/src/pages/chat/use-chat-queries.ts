import type { ChatModel, Conversation } from '@aiplatform/contracts';
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { chatApi } from '../../api/chat';
import { queryKeys } from '../../api/query-keys';

export function useChatModels() {
  return useQuery({ queryKey: queryKeys.chatModels, queryFn: chatApi.models, staleTime: 60_000 });
}

export function useConversations() {
  return useQuery({ queryKey: queryKeys.chatConversations, queryFn: chatApi.conversations });
}

export function useChatCredits() {
  return useQuery({ queryKey: queryKeys.chatCredits, queryFn: chatApi.credits });
}

/**
 * The system announcement, or null when there is none. It is optional decoration:
 * a failed or missing announcement is only logged and shows nothing.
 */
export function useSystemAnnouncement(): string | null {
  const { data } = useQuery({
    queryKey: queryKeys.systemAnnouncement,
    queryFn: async () => {
      try {
        const announcement = await chatApi.systemAnnouncement();
        return announcement.enabled === false ? '' : (announcement.content ?? '').trim();
      } catch (error) {
        console.info('No system announcement available', error);
        return '';
      }
    },
    staleTime: 5 * 60_000,
  });
  return data || null;
}

/** Display names by model identifier. */
export function useModelNames(models: ChatModel[] | undefined): ReadonlyMap<string, string> {
  return useMemo(() => new Map((models ?? []).map((model) => [model.name, model.display_name])), [models]);
}

/** Edits of the cached conversation list, so the sidebar reflects a change before the next fetch. */
export function conversationCache(queryClient: QueryClient) {
  const set = (change: (list: Conversation[]) => Conversation[]) =>
    queryClient.setQueryData<Conversation[]>(queryKeys.chatConversations, (list) => (list ? change(list) : list));
  return {
    patch(id: string, change: (conversation: Conversation) => Partial<Conversation>) {
      set((list) => list.map((c) => (c.id === id ? { ...c, ...change(c) } : c)));
    },
    replace(conversation: Conversation) {
      set((list) => list.map((c) => (c.id === conversation.id ? conversation : c)));
    },
    add(conversation: Conversation) {
      set((list) => [conversation, ...list.filter((c) => c.id !== conversation.id)]);
    },
    remove(id: string) {
      set((list) => list.filter((c) => c.id !== id));
    },
    /** Re-reads the list: the server's order (priority, then latest activity) and titles. */
    refresh() {
      return queryClient.invalidateQueries({ queryKey: queryKeys.chatConversations });
    },
  };
}

export type ConversationCache = ReturnType<typeof conversationCache>;

export function useConversationCache(): ConversationCache {
  const queryClient = useQueryClient();
  return useMemo(() => conversationCache(queryClient), [queryClient]);
}
