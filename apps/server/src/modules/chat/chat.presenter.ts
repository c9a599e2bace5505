import type { Citation, Conversation, Message } from '@aiplatform/contracts';
import type { ConversationRow } from '../../db/types.js';
import type { MessageWithFiles } from './messages.repo.js';

/** Any row of a conversation, with or without its owner column. */
export function toConversation(c: Omit<ConversationRow, 'user_id' | 'active_message_id' | 'hidden_at'>): Conversation {
  return {
    id: c.id,
    title: c.title,
    model_name: c.model_name,
    system_prompt: c.system_prompt,
    is_pinned: c.is_pinned === 1,
    context_length: c.context_length,
    ai_temperature: Number(c.ai_temperature),
    priority: c.priority,
    message_count: c.message_count,
    total_tokens: c.total_tokens,
    last_message_at: c.last_message_at,
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}

/**
 * `imageUrl` gives an image's address (a fresh signed one, see SignedImageUrls); a
 * document's is the call that describes it (its text is read from there by its owner);
 * `siblingIds` (its versions, itself included) where a list of the branch shown asks for them.
 * An answer carries the passages it was given (`citations`, empty when none).
 */
export function toMessage(
  m: Omit<MessageWithFiles, 'error_code'> & { error_code?: string | null },
  imageUrl: (fileId: string) => string,
  siblingIds?: string[],
): Message {
  const files = m.files.map((f) => ({
    id: f.id,
    url: f.kind === 'document' ? documentPath(f.id) : imageUrl(f.id),
    original_name: f.original_name,
    kind: f.kind,
  }));
  return {
    id: m.id,
    conversation_id: m.conversation_id,
    role: m.role,
    content: m.content,
    files,
    file: files[0] ?? null,
    created_at: m.created_at,
    tokens: m.tokens,
    model_name: m.model_name,
    status: m.status,
    parent_id: m.parent_id,
    ...(siblingIds ? { sibling_ids: siblingIds } : {}),
    error_code: m.error_code ?? null,
    ...(m.role === 'assistant' ? { citations: parseCitations(m.citations) } : {}),
  };
}

/** Where a document attached to a message is described (GET /chat/files/{id}). */
const documentPath = (fileId: string) => `/api/chat/files/${fileId}`;

/** An answer's stored citations (JSON written with it); none when absent or unreadable. */
export function parseCitations(json: string | null | undefined): Citation[] {
  if (!json) return [];
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? (parsed as Citation[]) : [];
  } catch {
    return [];
  }
}
