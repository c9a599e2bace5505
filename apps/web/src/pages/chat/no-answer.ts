import type { Message } from '@aiplatform/contracts';
import type { ChatMessage } from '../../components/chat/chat-message';

/** The id of the stand-in shown under a question left unanswered (never sent to the server). */
export const noAnswerId = (questionId: string) => `no-answer-${questionId}`;

/**
 * The server keeps a question whose answer never came (marked `unanswered`, its turn
 * refunded). On screen it gets the same "no answer: retry" line a live failure shows, so
 * the conversation looks the same before and after a reload.
 */
export function withNoAnswerMarks(messages: Message[], reason: string): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const m of messages) {
    out.push(m);
    if (m.role !== 'user' || m.status !== 'unanswered') continue;
    out.push({
      id: noAnswerId(m.id),
      conversation_id: m.conversation_id,
      role: 'assistant',
      content: '',
      files: [],
      file: null,
      created_at: m.created_at,
      tokens: 0,
      model_name: null,
      status: 'error',
      parent_id: m.id,
      temp: true,
      failure: { message: reason, questionId: m.id, content: m.content, images: m.files },
    });
  }
  return out;
}
