import type { ChatModel } from '@aiplatform/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { chatApi } from '../../api/chat';
import type { AnswerRework, ChatMessage } from '../../components/chat/chat-message';
import { reportError } from '../../components/common/report-error';
import type { ChatSessions } from './chat-sessions';
import { toShownMessages } from './shown-messages';
import type { useSendMessage } from './use-send-message';

interface ReworkDeps {
  store: ChatSessions;
  sender: ReturnType<typeof useSendMessage>;
  conversationId: string | null;
  model: ChatModel | undefined;
  modelName: string | null;
}

/**
 * Regenerate, edit, retry and continue are turns like a send, each charged like any
 * other. Regenerate and retry answer the stored question again (a new version of its
 * answer, in place); an edit sends the new text as a new version of the question. Nothing
 * is deleted: the earlier versions stay reachable through the `‹ 1/2 ›` switcher.
 */
export function useAnswerRework({ store, sender, conversationId, model, modelName }: ReworkDeps): AnswerRework {
  const { t } = useTranslation();
  return useMemo(() => {
    const indexOf = (id: string, messageId: string) => store.get(id).messages.findIndex((m) => m.id === messageId);
    /** A new answer to a stored question, shown in place of what followed it (or of the failed answer `inPlaceOf`). */
    const answerAgain = (question: ChatMessage | undefined, inPlaceOf?: string) => {
      if (!conversationId || !question || question.role !== 'user' || question.temp) return;
      const at = indexOf(conversationId, question.id);
      if (at < 0) return;
      void sender.send(conversationId, model, modelName, {
        content: question.content,
        images: question.files,
        rework: { keep: at + 1, regenerateOf: question.id, inPlaceOf },
      });
    };
    const questionOf = (answer: ChatMessage) => {
      if (!conversationId) return undefined;
      const list = store.get(conversationId).messages;
      const at = list.findIndex((m) => m.id === answer.id);
      return at > 0 ? list[at - 1] : undefined;
    };

    return {
      retry: (failed) => {
        const failure = failed.failure;
        if (!conversationId || !failure) return;
        answerAgain(
          store.get(conversationId).messages.find((m) => m.id === failure.questionId),
          failed.id,
        );
      },
      regenerate: (answer) => answerAgain(questionOf(answer)),
      continueAnswer: () => {
        if (conversationId)
          void sender.send(conversationId, model, modelName, { content: t('chat:message.continuePrompt'), images: [] });
      },
      editQuestion: (question, text) => {
        if (!conversationId || !text.trim() || question.temp) return;
        const at = indexOf(conversationId, question.id);
        if (at < 0) return;
        void sender.send(conversationId, model, modelName, {
          content: text.trim(),
          images: question.files,
          rework: { keep: at, parentId: question.parent_id },
        });
      },
      showVersion: async (messageId) => {
        if (!conversationId || store.get(conversationId).phase !== 'idle') return false;
        const id = conversationId;
        try {
          const messages = await chatApi.showVersion(id, messageId);
          if (store.get(id).phase !== 'idle') return false;
          store.update(id, { messages: toShownMessages(messages) });
          return true;
        } catch (error) {
          reportError(error, 'chat:message.versionFailed');
          return false;
        }
      },
    };
  }, [conversationId, model, modelName, sender, store, t]);
}
