import { clearCapRefusal } from '../../api/cap-refusal';
import type { ChatCredits, ChatModel, Conversation, MessageFile } from '@aiplatform/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { chatApi } from '../../api/chat';
import { toast } from '../../api/notify';
import { queryKeys } from '../../api/query-keys';
import { type CreditCheck, checkCredits } from '../../components/chat/credit-check';
import type { ChatSessions } from './chat-sessions';
import type { DraftKeeper } from './draft-keeper';
import { queueSend } from './send-queue';
import { type SendJob, runPlainSend, runStreamSend } from './send-runner';
import type { ConversationCache } from './use-chat-queries';
import { imagesFor } from './new-chat';

interface SendDeps {
  store: ChatSessions;
  drafts: DraftKeeper;
  cache: ConversationCache;
}

/**
 * Send and stop: empty input does nothing, the credit check runs first, then
 * stream or non-stream mode according to the model. A send while an answer is
 * produced waits for its end.
 */
export function useSendMessage({ store, drafts, cache }: SendDeps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();

  /** The balance as last read; read now if unknown. A balance that cannot be read is unknown. */
  const creditCheck = useCallback(
    async (model: ChatModel | undefined): Promise<CreditCheck> => {
      let credits = queryClient.getQueryData<ChatCredits>(queryKeys.chatCredits);
      if (!credits) {
        credits = await queryClient
          .fetchQuery({ queryKey: queryKeys.chatCredits, queryFn: chatApi.credits })
          .catch(() => undefined);
      }
      return checkCredits(credits?.credits_stats, model);
    },
    [queryClient],
  );

  const afterAnswer = useCallback(
    (conversationId: string, creditsRemaining: number | undefined, conversation?: Conversation) => {
      if (creditsRemaining !== undefined) {
        // A turn went through: no cap is refusing any more.
        clearCapRefusal();
        queryClient.setQueryData<ChatCredits>(queryKeys.chatCredits, (old) =>
          old ? { credits_stats: { ...old.credits_stats, remaining: creditsRemaining } } : old,
        );
      }
      if (conversation) cache.replace(conversation);
      void queryClient.invalidateQueries({ queryKey: queryKeys.chatCredits });
      // The credit warnings of the header bell and the dashboard's numbers include this turn.
      void queryClient.invalidateQueries({ queryKey: queryKeys.stats });
      // A turn may have crossed a cap's alert threshold: the bell shows it at once.
      void queryClient.invalidateQueries({ queryKey: queryKeys.notifications });
      void cache.refresh();
      // The header and the export read the detail too; keep its counters current.
      if (conversation)
        store.update(conversationId, (s) => ({ detail: s.detail ? { ...s.detail, ...conversation } : null }));
    },
    [cache, queryClient, store],
  );

  /** Whether the balance cannot cover a chat with `model`; says why when it cannot. */
  const refusedForCredits = useCallback(
    async (model: ChatModel | undefined): Promise<boolean> => {
      const check = await creditCheck(model);
      if (check.ok) return false;
      toast(
        'warning',
        check.reason === 'expired'
          ? t('chat:credits.expired')
          : t('chat:credits.insufficient', {
              required: check.required,
              balance: check.balance ?? t('chat:credits.unknown'),
            }),
      );
      return true;
    },
    [creditCheck, t],
  );

  /**
   * Sends the text box's content, or with `resend` a text of its own (a new version of a
   * question or an answer: edit, regenerate, retry), leaving whatever is in the box alone.
   */
  const send = useCallback(
    async (
      conversationId: string,
      model: ChatModel | undefined,
      modelName: string | null,
      resend?: { content: string; images: MessageFile[]; rework?: SendJob['rework'] },
    ) => {
      const session = store.get(conversationId);
      const content = resend ? resend.content : session.input.trim();
      const chosenImages = resend ? resend.images : session.images;
      if ((!content && chosenImages.length === 0) || session.phase !== 'idle') return;
      if (await refusedForCredits(model)) return;
      // Images go only to a model that accepts them (documents to any).
      const images = imagesFor(model, chosenImages);
      if (!resend) {
        store.update(conversationId, { input: '', images: [] });
        drafts.discard(conversationId);
      }
      const job = {
        store,
        conversationId,
        content,
        input: resend ? resend.content : session.input,
        images,
        modelName,
        rework: resend?.rework,
        onSettled: (credits: number | undefined, conversation?: Conversation) =>
          afterAnswer(conversationId, credits, conversation),
      };
      // An unknown model (no longer offered) is tried in stream mode; the server has the last word.
      await (model && !model.stream_enabled ? runPlainSend(job) : runStreamSend(job));
    },
    [afterAnswer, drafts, refusedForCredits, store],
  );

  /**
   * "Send" from the text box (Enter or the button). While an answer is still produced the
   * message is queued and sent when that answer ends; an empty box queues nothing.
   */
  const submit = useCallback(
    (conversationId: string, model: ChatModel | undefined, modelName: string | null) => {
      const session = store.get(conversationId);
      if (session.phase !== 'idle' && !session.input.trim() && session.images.length === 0) return;
      queueSend(store, conversationId, () => void send(conversationId, model, modelName));
    },
    [send, store],
  );

  const stop = useCallback(
    (conversationId: string) => {
      // The server is told as well: a proxy that holds the connection open, or a stream
      // already cut, would otherwise leave the model writing (and the answer not stored yet).
      chatApi.stop(conversationId).catch((error: unknown) => console.warn('stop request failed', error));
      store.abort(conversationId);
    },
    [store],
  );

  return { send, submit, stop, refusedForCredits };
}
