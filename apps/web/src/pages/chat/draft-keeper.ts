import type { Draft } from '@aiplatform/contracts';
import { chatApi } from '../../api/chat';
import { CHAT_DRAFT_PREFIX } from '../../stores/chat-local-data';

/** A draft is saved 1 s after typing stops. */
export const DRAFT_SAVE_DELAY_MS = 1000;

interface LocalDraft {
  content: string;
  savedAt: string;
}

const localKey = (conversationId: string) => `${CHAT_DRAFT_PREFIX}${conversationId}`;

function readLocal(conversationId: string): LocalDraft | null {
  try {
    const raw = localStorage.getItem(localKey(conversationId));
    const value = raw ? (JSON.parse(raw) as Partial<LocalDraft>) : null;
    return value && typeof value.content === 'string' && typeof value.savedAt === 'string'
      ? { content: value.content, savedAt: value.savedAt }
      : null;
  } catch {
    return null;
  }
}

function writeLocal(conversationId: string, content: string): void {
  try {
    if (content)
      localStorage.setItem(localKey(conversationId), JSON.stringify({ content, savedAt: new Date().toISOString() }));
    else localStorage.removeItem(localKey(conversationId));
  } catch {
    // A full or disabled storage only loses the local copy; the server keeps the draft.
  }
}

const logFailure = (error: unknown) => console.warn('Could not save the chat draft', error);

/**
 * Drafts: saved on the server and in a local copy 1 s after typing stops,
 * restored when a conversation opens (the newer of the two wins), removed on send.
 */
export class DraftKeeper {
  private readonly timers = new Map<string, { timer: number; content: string }>();

  /** Call on every change of the text box. */
  schedule(conversationId: string, content: string): void {
    this.cancel(conversationId);
    const timer = window.setTimeout(() => this.save(conversationId, content), DRAFT_SAVE_DELAY_MS);
    this.timers.set(conversationId, { timer, content });
  }

  /** The text to show when a conversation opens. */
  restore(conversationId: string, server: Draft | null): string {
    const local = readLocal(conversationId);
    if (!server) return local?.content ?? '';
    if (!local) return server.content;
    return Date.parse(local.savedAt) > Date.parse(server.updated_at) ? local.content : server.content;
  }

  /** The message was sent: the draft is gone, locally and on the server. */
  discard(conversationId: string): void {
    this.cancel(conversationId);
    writeLocal(conversationId, '');
    chatApi.deleteDraft(conversationId).catch(logFailure);
  }

  /** The conversation was deleted: its local copy goes too (the server deleted its draft). */
  forget(conversationId: string): void {
    this.cancel(conversationId);
    writeLocal(conversationId, '');
  }

  /** Saves every pending draft now (the page is closing). */
  flush(): void {
    for (const [conversationId, { content }] of [...this.timers]) this.save(conversationId, content);
  }

  private cancel(conversationId: string): void {
    const pending = this.timers.get(conversationId);
    if (pending) window.clearTimeout(pending.timer);
    this.timers.delete(conversationId);
  }

  private save(conversationId: string, content: string): void {
    this.cancel(conversationId);
    writeLocal(conversationId, content);
    const call = content ? chatApi.saveDraft(conversationId, content) : chatApi.deleteDraft(conversationId);
    call.catch(logFailure);
  }
}
