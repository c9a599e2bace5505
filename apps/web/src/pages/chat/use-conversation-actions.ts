import type { ChatModel, Conversation, CreateConversationBody, MessageFile } from '@aiplatform/contracts';
import type { HookAPI } from 'antd/es/modal/useModal';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { chatApi } from '../../api/chat';
import { toast } from '../../api/notify';
import type { ConversationFormValues } from '../../components/chat/ConversationFormFields';
import type { RenameOutcome } from '../../components/chat/ConversationRename';
import { errorText, reportError } from '../../components/common/report-error';
import { isApiError } from '../../api/api-error';
import type { ChatSessions } from './chat-sessions';
import type { DraftKeeper } from './draft-keeper';
import type { ConversationCache } from './use-chat-queries';
import { imagesFor } from './new-chat';

interface ActionDeps {
  store: ChatSessions;
  drafts: DraftKeeper;
  cache: ConversationCache;
  modal: HookAPI;
  selectedId: string | null;
  select: (id: string | null) => void;
}

/**
 * Create (by a first message), edit, rename, pin, switch model, delete and clear conversations,
 * with the product's toasts.
 */
export function useConversationActions({ store, drafts, cache, modal, selectedId, select }: ActionDeps) {
  const { t } = useTranslation();

  return useMemo(() => {
    /** Keeps the list and the open conversation's detail in step with the server's answer. */
    const applied = (conversation: Conversation) => {
      cache.replace(conversation);
      if (store.has(conversation.id))
        store.update(conversation.id, (s) => ({ detail: s.detail ? { ...s.detail, ...conversation } : null }));
      void cache.refresh();
    };

    return {
      /**
       * The first send of a new chat: the conversation is made with the chosen settings (the
       * server names an untitled one after the first question) and opened with `input` and
       * `images` in its composer, so that sending takes them from there. Resolves to its id, or null.
       */
      start: async (body: CreateConversationBody, input: string, images: MessageFile[]): Promise<string | null> => {
        try {
          const conversation = await chatApi.createConversation(body);
          // A conversation just made has no messages and no draft: nothing to read back.
          store.update(conversation.id, {
            status: 'ready',
            detail: { ...conversation, draft: null },
            messages: [],
            input,
            images,
          });
          select(conversation.id);
          cache.add(conversation);
          void cache.refresh();
          return conversation.id;
        } catch (error) {
          reportError(error, 'chat:conversation.createFailed');
          return null;
        }
      },

      /**
       * Undoes `start` when its first send was refused before the turn began, so that no
       * conversation without messages is left listed. Resolves to the text and images it held
       * (for the new chat to take back), or null when it could not be deleted (it then stays,
       * with them in its composer).
       */
      abandon: async (conversationId: string): Promise<{ input: string; images: MessageFile[] } | null> => {
        const { input, images } = store.get(conversationId);
        try {
          await chatApi.deleteConversation(conversationId, { silent: true });
        } catch (error) {
          console.warn('Could not delete the conversation of a refused first message', error);
          return null;
        }
        cache.remove(conversationId);
        store.remove(conversationId);
        drafts.forget(conversationId);
        void cache.refresh();
        return { input, images };
      },

      save: async (conversation: Conversation, changes: Partial<ConversationFormValues>): Promise<boolean> => {
        try {
          applied(await chatApi.updateConversation(conversation.id, changes));
          toast('success', t('chat:conversation.updated'));
          return true;
        } catch (error) {
          reportError(error, 'chat:conversation.updateFailed');
          return false;
        }
      },

      /**
       * Renames from the sidebar. The server's refusal of a title (empty, too long) comes
       * back as the text to show beside the title box; other failures are toasted.
       */
      rename: async (conversation: Conversation, title: string): Promise<RenameOutcome> => {
        try {
          applied(await chatApi.updateConversation(conversation.id, { title }));
          toast('success', t('chat:conversation.renamed'));
          return { saved: true };
        } catch (error) {
          if (isApiError(error) && error.status === 400)
            return { saved: false, problem: errorText(error, 'chat:conversation.updateFailed') };
          reportError(error, 'chat:conversation.updateFailed');
          return { saved: false };
        }
      },

      pin: async (conversation: Conversation, pinned: boolean): Promise<void> => {
        try {
          applied(await chatApi.updateConversation(conversation.id, { is_pinned: pinned }));
          toast('success', t(pinned ? 'chat:conversation.pinned' : 'chat:conversation.unpinned'));
        } catch (error) {
          reportError(error, 'chat:conversation.pinFailed');
        }
      },

      switchModel: async (conversationId: string, model: ChatModel): Promise<void> => {
        try {
          applied(await chatApi.updateConversation(conversationId, { model_name: model.name }));
          // Attached images cannot go to a model without image support; documents stay.
          if (!model.image_upload_enabled)
            store.update(conversationId, (s) => ({ images: imagesFor(model, s.images) }));
          toast('success', t('chat:model.switched', { name: model.display_name }));
        } catch (error) {
          reportError(error, 'chat:model.switchFailed');
        }
      },

      confirmDelete: (conversation: Conversation) => {
        void modal.confirm({
          title: t('chat:conversation.deleteConfirmTitle'),
          content: t('chat:conversation.deleteConfirmContent', {
            title: conversation.title || t('chat:conversation.untitled'),
          }),
          okText: t('chat:confirm.delete'),
          okButtonProps: { danger: true, 'data-testid': 'conversation-delete-confirm' },
          cancelText: t('chat:confirm.cancel'),
          onOk: async () => {
            try {
              await chatApi.deleteConversation(conversation.id);
              cache.remove(conversation.id);
              store.remove(conversation.id);
              drafts.forget(conversation.id);
              if (selectedId === conversation.id) select(null);
              toast('success', t('chat:conversation.deleted'));
              void cache.refresh();
            } catch (error) {
              reportError(error, 'chat:conversation.deleteFailed');
            }
          },
        });
      },

      confirmClear: (conversationId: string) => {
        void modal.confirm({
          title: t('chat:clear.confirmTitle'),
          content: t('chat:clear.confirmContent'),
          okText: t('chat:confirm.ok'),
          okButtonProps: { danger: true, 'data-testid': 'clear-confirm' },
          cancelText: t('chat:confirm.cancel'),
          onOk: async () => {
            try {
              await chatApi.clear(conversationId);
              store.update(conversationId, (s) => ({
                messages: [],
                detail: s.detail ? { ...s.detail, message_count: 0, total_tokens: 0 } : null,
              }));
              cache.patch(conversationId, () => ({ message_count: 0, total_tokens: 0 }));
              toast('success', t('chat:clear.success'));
            } catch (error) {
              reportError(error, 'chat:clear.failed');
            }
          },
        });
      },
    };
  }, [cache, drafts, modal, select, selectedId, store, t]);
}
