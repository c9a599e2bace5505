import type { ChatModel, MessageFile } from '@aiplatform/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { chatApi } from '../../api/chat';
import type { AnswerRework, ChatMessage } from '../../components/chat/chat-message';
import { reportError } from '../../components/common/report-error';
import type { ChatSessions } from './chat-sessions';
import type { useSendMessage } from './use-send-message';

interface ReworkDeps {
  store: ChatSessions;
  sender: ReturnType<typeof useSendMessage>;
  conversationId: string | null;
  model: ChatModel | undefined;
  modelName: string | null;
}

/**
 * Regenerate, edit and continue reuse the ordinary send, so each new answer is charged
 * exactly like any other turn; what they replace is deleted first, as "delete" would
 * (spent credits stay spent). The reworked question's images are sent again by id, so
 * its deletion asks the server to keep them.
 */
export function useAnswerRework({ store, sender, conversationId, model, modelName }: ReworkDeps): AnswerRework {
  const { t } = useTranslation();
  return useMemo(() => {
    const resend = (content: string, images: MessageFile[]) => {
      if (conversationId) void sender.send(conversationId, model, modelName, { content, images });
    };
    /**
     * Deletes on the server every answer (with its question) from `fromIndex` on, then here.
     * The latest go first and the pair of the reworked question last, keeping its images:
     * an image it shares with a later question is then still in use while that one goes.
     */
    const dropFrom = async (id: string, fromIndex: number): Promise<boolean> => {
      const gone = store.get(id).messages.slice(fromIndex);
      // Answers go with their question; a question left unanswered goes on its own.
      const deletions = gone.filter((m) =>
        m.role === 'assistant' ? !m.temp && !m.failure : m.status === 'unanswered',
      );
      try {
        for (const [i, m] of deletions.reverse().entries()) {
          await chatApi.deleteMessagePair(id, m.id, { keepImages: i === deletions.length - 1 });
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
        // The server keeps the unanswered question; it goes there first, then the text is
        // sent again as a new turn at the end.
        void chatApi.deleteMessagePair(conversationId, failure.questionId, { keepImages: true }).then(
          () => {
            store.updateMessages(conversationId, (list) =>
              list.filter((m) => m.id !== failed.id && m.id !== failure.questionId),
            );
            resend(failure.content, failure.images);
          },
          (error: unknown) => reportError(error, 'chat:message.deleteFailed'),
        );
      },
      regenerate: (answer) => {
        if (!conversationId) return;
        const at = questionIndexOf(conversationId, answer);
        const question = store.get(conversationId).messages[at];
        if (!question) return;
        void dropFrom(conversationId, at).then((ok) => ok && resend(question.content, question.files));
      },
      continueAnswer: () => resend(t('chat:message.continuePrompt'), []),
      editQuestion: (question, text) => {
        if (!conversationId || !text.trim()) return;
        const at = store.get(conversationId).messages.findIndex((m) => m.id === question.id);
        if (at < 0) return;
        void dropFrom(conversationId, at).then((ok) => ok && resend(text.trim(), question.files));
      },
    };
  }, [conversationId, model, modelName, sender, store, t]);
}
