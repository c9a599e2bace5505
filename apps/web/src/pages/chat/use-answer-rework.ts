import type { ChatModel, Message, UploadedImage } from '@aiplatform/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { chatApi } from '../../api/chat';
import type { ChatMessage } from '../../components/chat/chat-message';
import { reportError } from '../../components/common/report-error';
import type { ChatSessions } from './chat-sessions';
import type { useSendMessage } from './use-send-message';

/** What an answer or question offers besides copy and delete. */
export interface AnswerRework {
  /** Sends again the question of an answer that never came (it exists on this screen only). */
  retry(failed: ChatMessage): void;
  /** Replaces the last answer by a new one to the same question; billed as a new turn. */
  regenerate(answer: ChatMessage): void;
  /** An answer cut off by the length limit: asks the model to go on, as a new turn. */
  continueAnswer(): void;
  /** Replaces a sent question, and everything after it, by the edited text. */
  editQuestion(question: ChatMessage, text: string): void;
}

interface ReworkDeps {
  store: ChatSessions;
  sender: ReturnType<typeof useSendMessage>;
  conversationId: string | null;
  model: ChatModel | undefined;
  modelName: string | null;
}

/** The image a sent question carried, in the shape a send takes. */
function imageOf(question: Message): UploadedImage | null {
  return question.file ? { ...question.file, mime: '', size: 0 } : null;
}

/**
 * Regenerate, edit and continue reuse the ordinary send, so each new answer is charged
 * exactly like any other turn; what they replace is deleted first, as "delete" would
 * (spent credits stay spent).
 */
export function useAnswerRework({ store, sender, conversationId, model, modelName }: ReworkDeps): AnswerRework {
  const { t } = useTranslation();
  return useMemo(() => {
    const resend = (content: string, image: UploadedImage | null) => {
      if (conversationId) void sender.send(conversationId, model, modelName, { content, image });
    };
    /** Deletes on the server every answer (with its question) from `fromIndex` on, then here. */
    const dropFrom = async (id: string, fromIndex: number): Promise<boolean> => {
      const gone = store.get(id).messages.slice(fromIndex);
      try {
        for (const m of gone) {
          if (m.role === 'assistant' && !m.temp && !m.failure) await chatApi.deleteMessagePair(id, m.id);
        }
      } catch (error) {
        reportError(error, 'chat:message.deleteFailed');
        return false;
      }
      store.updateMessages(id, (list) => list.filter((m) => !gone.some((g) => g.id === m.id)));
      return true;
    };
    const questionIndexOf = (id: string, answer: ChatMessage) => {
      const list = store.get(id).messages;
      const at = list.findIndex((m) => m.id === answer.id);
      return at > 0 && list[at - 1]?.role === 'user' ? at - 1 : -1;
    };

    return {
      retry: (failed) => {
        const failure = failed.failure;
        if (!conversationId || !failure) return;
        store.updateMessages(conversationId, (list) =>
          list.filter((m) => m.id !== failed.id && m.id !== failure.questionId),
        );
        resend(failure.content, failure.image);
      },
      regenerate: (answer) => {
        if (!conversationId) return;
        const at = questionIndexOf(conversationId, answer);
        const question = store.get(conversationId).messages[at];
        if (!question) return;
        void dropFrom(conversationId, at).then((ok) => ok && resend(question.content, imageOf(question)));
      },
      continueAnswer: () => resend(t('chat:message.continuePrompt'), null),
      editQuestion: (question, text) => {
        if (!conversationId || !text.trim()) return;
        const at = store.get(conversationId).messages.findIndex((m) => m.id === question.id);
        if (at < 0) return;
        void dropFrom(conversationId, at).then((ok) => ok && resend(text.trim(), imageOf(question)));
      },
    };
  }, [conversationId, model, modelName, sender, store, t]);
}
