import type { Conversation, Message } from '@aiplatform/contracts';
import type { ConversationRow } from '../../db/types.js';
import type { MessageWithFiles } from './messages.repo.js';

/** Any row of a conversation, with or without its owner column. */
export function toConversation(c: Omit<ConversationRow, 'user_id'>): Conversation {
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

/** `imageUrl` gives an image's address (a fresh signed one, see SignedImageUrls). */
export function toMessage(
  m: Omit<MessageWithFiles, 'error_code'> & { error_code?: string | null },
  imageUrl: (fileId: string) => string,
): Message {
  const files = m.files.map((f) => ({ id: f.id, url: imageUrl(f.id), original_name: f.original_name }));
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
    error_code: m.error_code ?? null,
  };
}
