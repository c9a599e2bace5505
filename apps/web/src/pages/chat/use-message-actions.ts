import type { Conversation } from '@aiplatform/contracts';
import type { HookAPI } from 'antd/es/modal/useModal';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { chatApi } from '../../api/chat';
import { toast } from '../../api/notify';
import type { ChatMessage } from '../../components/chat/chat-message';
import { reportError } from '../../components/common/report-error';
import type { ChatSessions } from './chat-sessions';
import { exportFileName, formatConversationExport } from './export-format';
import { toShownMessages } from './shown-messages';
import type { ConversationCache } from './use-chat-queries';

interface MessageActionDeps {
  store: ChatSessions;
  cache: ConversationCache;
  modal: HookAPI;
}

function download(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The download has started by now; the URL is no longer needed.
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Deleting an answer (with its question) and exporting a conversation as text. */
export function useMessageActions({ store, cache, modal }: MessageActionDeps) {
  const { t } = useTranslation();

  return useMemo(
    () => ({
      /** Only answers can be deleted here, after a confirmation (with their question or their version's replies). */
      confirmDelete: (conversationId: string, message: ChatMessage) => {
        if (message.role !== 'assistant' || message.temp || message.streaming) return;
        void modal.confirm({
          title: t('chat:message.deleteConfirmTitle'),
          content: t('chat:message.deleteConfirmContent'),
          okText: t('chat:confirm.delete'),
          okButtonProps: { danger: true, 'data-testid': 'message-delete-confirm' },
          cancelText: t('chat:confirm.cancel'),
          onOk: async () => {
            try {
              const result = await chatApi.deleteMessagePair(conversationId, message.id);
              const removed = result.deleted_ids.length;
              // What follows a deleted turn may have moved up, or another version be shown now: read the branch back.
              const messages = toShownMessages(await chatApi.messages(conversationId));
              store.update(conversationId, (s) => ({
                messages,
                detail: s.detail ? { ...s.detail, message_count: Math.max(0, s.detail.message_count - removed) } : null,
              }));
              cache.patch(conversationId, (c) => ({ message_count: Math.max(0, c.message_count - removed) }));
              toast('success', t('chat:message.deleted'));
            } catch (error) {
              reportError(error, 'chat:message.deleteFailed');
            }
          },
        });
      },

      /** A text file named from the title and the time. */
      exportConversation: (conversation: Conversation, messages: readonly ChatMessage[], modelLabel: string) => {
        const finished = messages.filter((m) => !m.temp && !m.streaming);
        if (finished.length === 0) {
          toast('warning', t('chat:export.empty'));
          return;
        }
        try {
          const now = new Date();
          const title = conversation.title || t('chat:conversation.untitled');
          const text = formatConversationExport({
            title,
            model: modelLabel,
            createdAt: conversation.created_at,
            exportedAt: now,
            messages: finished,
            labels: {
              title: t('chat:export.title'),
              model: t('chat:export.model'),
              created: t('chat:export.created'),
              exported: t('chat:export.exported'),
              messageCount: t('chat:export.messageCount'),
              user: t('chat:export.user'),
              assistant: t('chat:export.assistant'),
              image: t('chat:export.image'),
              document: t('chat:export.document'),
              sources: t('chat:citations.title'),
              page: (page: number) => t('chat:citations.page', { page }),
              tokens: t('chat:export.tokens'),
              stoppedSuffix: t('chat:message.stoppedSuffix'),
            },
          });
          download(exportFileName(title, now), text);
          toast('success', t('chat:export.success'));
        } catch (error) {
          console.error(error);
          toast('error', t('chat:export.failed'));
        }
      },
    }),
    [cache, modal, store, t],
  );
}
