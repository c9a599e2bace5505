import type { Message } from '@aiplatform/contracts';
import type { ChatMessage } from '../../components/chat/chat-message';

/** The id of the stand-in shown under a question left unanswered (never sent to the server). */
export const noAnswerId = (questionId: string) => `no-answer-${questionId}`;

/**
 * The server keeps a question whose answer never came (marked `unanswered`, its turn
 * refunded), with the error code the live answer showed and the model it was sent to. On
 * screen it gets the same "reason: retry" line, under the same model, as the live failure,
 * so the conversation looks the same before and after a reload. `reason` stands in when no
 * code was kept (a stop before the first word, older rows); `reasonOf` words a code.
 */
export function withNoAnswerMarks(
  messages: Message[],
  reason: string,
  reasonOf: (code: string) => string = () => reason,
): ChatMessage[] {
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
      model_name: m.model_name,
      status: 'error',
      temp: true,
      failure: {
        message: m.error_code ? reasonOf(m.error_code) : reason,
        questionId: m.id,
        content: m.content,
        images: m.files,
      },
    });
  }
  return out;
}
