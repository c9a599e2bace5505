import type { Conversation } from '@aiplatform/contracts';
import { Drawer, Modal } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { releaseAuthImages } from '../../components/chat/AuthImage';
import { ConversationSettingsDrawer } from '../../components/chat/ConversationSettingsDrawer';
import { ConversationSidebar } from '../../components/chat/ConversationSidebar';
import { NewChatSettingsDrawer } from '../../components/chat/NewChatSettingsDrawer';
import { useDocumentTitle } from '../../components/common/use-document-title';
import { useIsMobile } from '../../components/layout/use-is-mobile';
import { ChatMain } from './ChatMain';
import { ChatSessions, useSessionValue } from './chat-sessions';
import { DraftKeeper } from './draft-keeper';
import {
  useChatCredits,
  useChatModels,
  useConversationCache,
  useConversations,
  useModelNames,
  useStartModel,
  useVisibleSystemAnnouncement,
} from './use-chat-queries';
import { useConversationActions } from './use-conversation-actions';
import { useConversationLoader } from './use-conversation-loader';
import { useAnswerResume } from './use-answer-resume';
import { useMessageActions } from './use-message-actions';
import { useNewChat } from './use-new-chat';
import { useOpenLatest } from './use-open-latest';
import { useSidebarState } from './use-sidebar-state';

/** The chat screen: conversation sidebar (or drawer on phones), main area, and the forms. */
export function ChatWorkspace() {
  const { t } = useTranslation();
  const sidebar = useSidebarState(useIsMobile());
  const [store] = useState(() => new ChatSessions());
  const [drafts] = useState(() => new DraftKeeper());
  const [modal, modalHolder] = Modal.useModal();
  const [params, setParams] = useSearchParams();
  const selectedId = params.get('c');
  // `?new`: the new chat, asked for while there are conversations (plain `/chat` opens the latest).
  const newChatAsked = !selectedId && params.has('new');

  const models = useChatModels();
  const conversations = useConversations();
  const credits = useChatCredits();
  const announcement = useVisibleSystemAnnouncement();
  const cache = useConversationCache();
  const modelNames = useModelNames(models.data);
  const startModel = useStartModel();
  const newChat = useNewChat(models.data ?? [], startModel);
  const retryLoad = useConversationLoader(store, drafts, selectedId);
  useAnswerResume(store, selectedId);
  const detail = useSessionValue(store, selectedId, (s) => s.detail);
  const conversation = conversations.data?.find((c) => c.id === selectedId) ?? detail ?? null;
  // The detail names the model as people know it, even one the user may no longer use.
  const modelDisplayName = detail?.model_name === conversation?.model_name ? detail?.model_display_name : undefined;
  // The browser tab names the open conversation (a rename shows at once), else the chat screen.
  useDocumentTitle(conversation ? conversation.title || t('chat:conversation.untitled') : t('layout:menu.chat'));

  const [newSettingsOpen, setNewSettingsOpen] = useState(false);
  const [settingsId, setSettingsId] = useState<string | null>(null);
  const settingsTarget = (settingsId && conversations.data?.find((c) => c.id === settingsId)) || null;

  const closeSidebar = sidebar.close;
  const select = useCallback(
    (id: string | null) => {
      setParams(id ? { c: id } : {});
      closeSidebar();
    },
    [closeSidebar, setParams],
  );
  useOpenLatest(conversations.data, Boolean(selectedId) || newChatAsked, setParams);
  const actions = useConversationActions({ store, drafts, cache, modal, selectedId, select });
  const messageActions = useMessageActions({ store, cache, modal });
  const openSettings = useCallback((c: Conversation) => setSettingsId(c.id), []);
  // "New chat" opens the empty chat at once; its settings wait in a drawer, all optional.
  const openNew = useCallback(() => {
    setParams({ new: '' });
    closeSidebar();
  }, [closeSidebar, setParams]);
  const openHeaderSettings = useCallback(() => {
    if (selectedId) setSettingsId(selectedId);
    else setNewSettingsOpen(true);
  }, [selectedId]);

  // Leaving stops no answer: the server writes it on, and the page attaches again on return
  // (useAnswerResume). Pending drafts are saved and the fetched images released.
  useEffect(
    () => () => {
      drafts.flush();
      releaseAuthImages();
    },
    [drafts],
  );

  const sidebarContent = (
    <ConversationSidebar
      conversations={conversations.data}
      loading={conversations.isPending}
      failed={conversations.isError}
      onRetry={() => void conversations.refetch()}
      selectedId={selectedId}
      modelNames={modelNames}
      onNew={openNew}
      onSelect={select}
      onRename={actions.rename}
      onPin={actions.pin}
      onSettings={openSettings}
      onDelete={actions.confirmDelete}
    />
  );

  return (
    <div className="chat-page" data-testid="chat-page">
      {/* The page's one h1, for screen readers; the open conversation's title is its h2. */}
      <h1 className="visually-hidden">{t('layout:menu.chat')}</h1>
      {sidebar.mode === 'inline' ? (
        sidebar.visible && <aside className="chat-sidebar">{sidebarContent}</aside>
      ) : (
        <Drawer
          placement="left"
          open={sidebar.visible}
          onClose={sidebar.close}
          size={280}
          title={t('chat:sidebar.title')}
          styles={{ body: { padding: 0 } }}
          data-testid="chat-sidebar-drawer"
        >
          {sidebarContent}
        </Drawer>
      )}
      <ChatMain
        store={store}
        drafts={drafts}
        cache={cache}
        conversationId={selectedId}
        conversation={conversation}
        modelDisplayName={modelDisplayName}
        models={models.data ?? []}
        modelsLoaded={models.isSuccess}
        modelNames={modelNames}
        credits={credits.data}
        announcement={announcement}
        sidebar={sidebar}
        actions={actions}
        messageActions={messageActions}
        onNew={openNew}
        onSettings={openHeaderSettings}
        newChat={newChat}
        onNewChatRefused={openNew}
        onRetry={retryLoad}
      />
      <NewChatSettingsDrawer
        open={newSettingsOpen && !selectedId}
        models={models.data ?? []}
        values={{ ...newChat.settings, model_name: newChat.model?.name ?? '' }}
        onClose={() => setNewSettingsOpen(false)}
        onApply={(values) =>
          newChat.applySettings(
            values,
            models.data?.find((m) => m.name === values.model_name),
          )
        }
      />
      <ConversationSettingsDrawer
        conversation={settingsTarget}
        models={models.data ?? []}
        onClose={() => setSettingsId(null)}
        onSave={actions.save}
        onPin={actions.pin}
      />
      {modalHolder}
    </div>
  );
}
