import { useCallback, useSyncExternalStore } from 'react';
import type { ChatMessage } from './chat-message';

/**
 * The text of an answer while it streams. It changes on every frame, and only the answer's
 * own message shows it, so it lives apart from the conversation's message list: updating
 * it renders that one message again, not the list (whose every update makes the virtual
 * list recompute its rows and re-measure).
 */
export interface LiveText {
  text(): string;
  set(text: string): void;
  subscribe(listener: () => void): () => void;
}

export function createLiveText(): LiveText {
  let current = '';
  const listeners = new Set<() => void>();
  return {
    text: () => current,
    set(text) {
      if (text === current) return;
      current = text;
      listeners.forEach((listener) => listener());
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const noSubscription = () => () => undefined;

/** What a message shows: the live text while it streams with one, else its content. */
export function shownText(message: ChatMessage): string {
  return message.streaming && message.live ? message.live.text() : message.content;
}

/** The message's shown text, following the live text as it grows. */
export function useShownText(message: ChatMessage): string {
  const live = message.streaming ? message.live : undefined;
  const subscribe = useCallback((listener: () => void) => (live ? live.subscribe(listener) : noSubscription()), [live]);
  return useSyncExternalStore(subscribe, () => shownText(message));
}
