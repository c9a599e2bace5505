import type { ChatCredits, ChatModel, Conversation } from '@aiplatform/contracts';
import { Alert } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChatHeader } from '../../components/chat/ChatHeader';
import { ShareDialog } from '../../components/sharing/ShareDialog';
import { ChatComposer } from './ChatComposer';
import type { ChatSessions } from './chat-sessions';
import type { DraftKeeper } from './draft-keeper';
import { MessagesPane } from './MessagesPane';
import type { ConversationCache } from './use-chat-queries';
import type { useConversationActions } from './use-conversation-actions';
import type { useMessageActions } from './use-message-actions';
import { useAnswerRework } from './use-answer-rework';
import { useSendMessage } from './use-send-message';
import type { NewChat } from './use-new-chat';
import type { SidebarState } from './use-sidebar-state';

interface ChatMainProps {
  store: ChatSessions;
  drafts: DraftKeeper;
  cache: ConversationCache;
  conversationId: string | null;
  conversation: Conversation | null;
  /** The conversation's model by its display name, when the server told it (the model may be unusable). */
  modelDisplayName?: string | undefined;
  models: ChatModel[];
  /** False until the model list has arrived: only then can a missing model be told apart. */
  modelsLoaded: boolean;
  modelNames: ReadonlyMap<string, string>;
  credits: ChatCredits | undefined;
  announcement: string | null;
  sidebar: SidebarState;
  actions: ReturnType<typeof useConversationActions>;
  messageActions: ReturnType<typeof useMessageActions>;
  onNew: () => void;
  onSettings: () => void;
  /** The chat before its first message (shown while no conversation is open). */
  newChat: NewChat;
  /** The new chat's first send was refused and its conversation undone: show the new chat again. */
  onNewChatRefused: () => void;
  onRetry: () => void;
}

/**
 * The main area: header, messages and input. The messages pane and the composer each
 * watch only their part of the conversation's state, so a streamed answer does not
 * re-render the text box and typing does not re-render the messages.
 */
export function ChatMain(props: ChatMainProps) {
  const { store, conversationId, conversation, models } = props;
  const { t } = useTranslation();
  const model = models.find((m) => m.name === conversation?.model_name);
  const modelLabel = model?.display_name ?? props.modelDisplayName ?? conversation?.model_name ?? '';
  // With no conversation open, the header shows the new chat and the model it will start on.
  const shownModel = conversationId ? model : (props.newChat.model ?? undefined);
  // The model was deleted, switched off or closed to the user's group: the conversation stays
  // readable, and the user is asked to pick another model before sending.
  const modelGone = Boolean(conversation && props.modelsLoaded && !model);
  const sender = useSendMessage({ store, drafts: props.drafts, cache: props.cache });
  const [sharing, setSharing] = useState(false);
  const rework = useAnswerRework({
    store,
    sender,
    conversationId,
    model,
    modelName: conversation?.model_name ?? null,
  });

  return (
    <section className="chat-main">
      <ChatHeader
        title={
          conversation
            ? conversation.title || t('chat:conversation.untitled')
            : conversationId
              ? ''
              : props.newChat.settings.title.trim() || t('chat:header.newChat')
        }
        modelLabel={conversation ? modelLabel : conversationId ? undefined : shownModel?.display_name}
        supportsImage={Boolean(shownModel?.image_upload_enabled)}
        knowledgeBases={conversation?.knowledge_base_ids?.length ?? 0}
        sidebarVisible={props.sidebar.visible}
        onToggleSidebar={props.sidebar.toggle}
        onNew={props.onNew}
        onSettings={props.onSettings}
        onShare={conversation ? () => setSharing(true) : undefined}
      />
      {conversation && (
        <ShareDialog conversationId={conversation.id} open={sharing} onClose={() => setSharing(false)} />
      )}
      <div className="chat-body">
        <MessagesPane
          store={store}
          conversationId={conversationId}
          modelNames={props.modelNames}
          announcement={props.announcement}
          onDelete={props.messageActions.confirmDelete}
          rework={rework}
          onSettings={props.onSettings}
          onRetry={props.onRetry}
        />
      </div>
      {modelGone && (
        <Alert
          className="chat-model-gone"
          type="warning"
          showIcon
          role="status"
          title={t('chat:model.goneTitle', { name: modelLabel })}
          description={t('chat:model.goneHint')}
          data-testid="model-gone"
        />
      )}
      <ChatComposer
        store={store}
        drafts={props.drafts}
        cache={props.cache}
        conversationId={conversationId}
        conversation={conversation}
        model={model}
        modelGone={modelGone}
        modelLabel={modelLabel}
        models={models}
        credits={props.credits}
        actions={props.actions}
        messageActions={props.messageActions}
        sender={sender}
        newChat={props.newChat}
        onNewChatRefused={props.onNewChatRefused}
      />
    </section>
  );
}
