import type { ConversationDetail, MessageFile } from '@aiplatform/contracts';
import { useCallback, useSyncExternalStore } from 'react';
import type { ChatMessage, ScrollMemo } from '../../components/chat/chat-message';

export type { ChatMessage, ScrollMemo };

/** `streaming`: a stream-mode answer is arriving; `waiting`: a non-stream answer is pending. */
export type SendPhase = 'idle' | 'streaming' | 'waiting';

/** Everything one conversation shows, kept while the user looks at another one. */
export interface ChatSession {
  status: 'idle' | 'loading' | 'ready' | 'error';
  detail: ConversationDetail | null;
  messages: ChatMessage[];
  phase: SendPhase;
  input: string;
  /** The images attached in the composer, in order (at most MAX_IMAGES_PER_MESSAGE). */
  images: MessageFile[];
  /** The text box's message waits for the answer now produced to end, then is sent. */
  queued: boolean;
}

const EMPTY: ChatSession = {
  status: 'idle',
  detail: null,
  messages: [],
  phase: 'idle',
  input: '',
  images: [],
  queued: false,
};

type Patch = Partial<ChatSession> | ((session: ChatSession) => Partial<ChatSession>);

/**
 * The in-memory state of every opened conversation. A stream keeps writing into its own
 * conversation after the user switched away, so state is keyed by conversation, not by view.
 * Only the session that changed notifies its subscribers.
 */
export class ChatSessions {
  private readonly sessions = new Map<string, ChatSession>();
  private readonly listeners = new Map<string, Set<() => void>>();
  private readonly controllers = new Map<string, AbortController>();
  private readonly scrolls = new Map<string, ScrollMemo>();

  get(id: string | null): ChatSession {
    return (id && this.sessions.get(id)) || EMPTY;
  }

  has(id: string): boolean {
    return this.sessions.has(id);
  }

  update(id: string, patch: Patch): void {
    const current = this.get(id);
    const change = typeof patch === 'function' ? patch(current) : patch;
    this.sessions.set(id, { ...current, ...change });
    this.listeners.get(id)?.forEach((listener) => listener());
  }

  updateMessages(id: string, change: (messages: ChatMessage[]) => ChatMessage[]): void {
    this.update(id, (session) => ({ messages: change(session.messages) }));
  }

  subscribe(id: string, listener: () => void): () => void {
    let set = this.listeners.get(id);
    if (!set) this.listeners.set(id, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  /** The controller that stops the answer now being produced in a conversation. */
  setController(id: string, controller: AbortController | null): void {
    if (controller) this.controllers.set(id, controller);
    else this.controllers.delete(id);
  }

  abort(id: string): boolean {
    const controller = this.controllers.get(id);
    controller?.abort();
    return Boolean(controller);
  }

  /** Scroll positions change constantly and are only read when a list mounts: no notifications. */
  scrollOf(id: string): ScrollMemo | undefined {
    return this.scrolls.get(id);
  }

  rememberScroll(id: string, memo: ScrollMemo): void {
    this.scrolls.set(id, memo);
  }

  /** Forgets a conversation (deleted): stops its answer and drops its state. */
  remove(id: string): void {
    this.abort(id);
    this.sessions.delete(id);
    this.scrolls.delete(id);
    this.listeners.get(id)?.forEach((listener) => listener());
  }
}

const noop = () => undefined;

/**
 * One part of a conversation's session (or of the empty one). The component re-renders
 * only when that part changes: a streamed answer re-renders the message list, not the
 * text box beside it.
 */
export function useSessionValue<T>(store: ChatSessions, id: string | null, select: (session: ChatSession) => T): T {
  const subscribe = useCallback((listener: () => void) => (id ? store.subscribe(id, listener) : noop), [store, id]);
  return useSyncExternalStore(subscribe, () => select(store.get(id)));
}

let tempCounter = 0;

/** Ids for messages the server has not named yet. */
export function tempId(kind: 'user' | 'assistant'): string {
  tempCounter += 1;
  return `temp-${kind}-${Date.now()}-${tempCounter}`;
}
