import type { ChatModel, Conversation } from '@aiplatform/contracts';
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { chatApi } from '../../api/chat';
import { queryKeys } from '../../api/query-keys';
import { useSystemAnnouncement, visibleContent } from '../../api/use-announcements';
import { usePublicConfig } from '../../api/use-public-config';
import { defaultModel } from './chat-start';

export function useChatModels() {
  return useQuery({ queryKey: queryKeys.chatModels, queryFn: chatApi.models, staleTime: 60_000 });
}

/**
 * The model a new conversation starts with, in the form and by a first message: undefined
 * while the models are loading, null when the user may use none (or they could not be read).
 */
export function useStartModel(): ChatModel | null | undefined {
  const models = useChatModels();
  const siteDefault = usePublicConfig().config.ai.default_model;
  return models.isPending ? undefined : defaultModel(models.data ?? [], siteDefault);
}

export function useConversations() {
  return useQuery({ queryKey: queryKeys.chatConversations, queryFn: chatApi.conversations });
}

export function useChatCredits() {
  return useQuery({ queryKey: queryKeys.chatCredits, queryFn: chatApi.credits });
}

/**
 * The system announcement's text while it is visible, or null. In the chat it is optional
 * decoration: while loading or after a failure (the query logs nothing noisy) it shows nothing.
 */
export function useVisibleSystemAnnouncement(): string | null {
  const { data } = useSystemAnnouncement();
  return visibleContent(data);
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
