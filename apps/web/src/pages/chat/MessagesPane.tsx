import { Button, Result, Spin } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ChatStart, ChatWelcome } from '../../components/chat/ChatEmptyState';
import type { ChatMessage, ScrollMemo } from '../../components/chat/chat-message';
import { MessageList } from '../../components/chat/MessageList';
import { type ChatSessions, useSessionValue } from './chat-sessions';
import type { AnswerRework } from '../../components/chat/chat-message';

interface MessagesPaneProps {
  store: ChatSessions;
  conversationId: string | null;
  modelNames: ReadonlyMap<string, string>;
  announcement: string | null;
  onDelete: (conversationId: string, message: ChatMessage) => void;
  /** Retry, regenerate, continue and edit. */
  rework: AnswerRework;
  /** The new chat's settings, offered on its welcome screen. */
  onSettings: () => void;
  onRetry: () => void;
}

/** The messages of the open conversation, or the state that stands in for them. */
export function MessagesPane({
  store,
  conversationId,
  modelNames,
  announcement,
  onDelete,
  rework,
  onSettings,
  onRetry,
}: MessagesPaneProps) {
  const { t } = useTranslation();
  const status = useSessionValue(store, conversationId, (s) => s.status);
  const messages = useSessionValue(store, conversationId, (s) => s.messages);
  const busy = useSessionValue(store, conversationId, (s) => s.phase !== 'idle');
  // `?message=<id>` (a search hit): the list scrolls to it once, then the address forgets it.
  const [params, setParams] = useSearchParams();
  const focusId = params.get('message');
  const onFocused = useCallback(
    () =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete('message');
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const onScrollMemo = useCallback(
    (memo: ScrollMemo) => {
      if (conversationId) store.rememberScroll(conversationId, memo);
    },
    [conversationId, store],
  );
  const deleteMessage = useCallback(
    (message: ChatMessage) => {
      if (conversationId) onDelete(conversationId, message);
    },
    [conversationId, onDelete],
  );

  if (!conversationId) return <ChatWelcome announcement={announcement} onSettings={onSettings} />;
  if (status === 'error')
    return (
      <Result
        status="warning"
        title={t('chat:conversation.loadFailed')}
        extra={<Button onClick={onRetry}>{t('chat:retry')}</Button>}
      />
    );
  if (status !== 'ready') return <Spin className="chat-main-spin" description={t('chat:conversation.loading')} />;
  if (messages.length === 0) return <ChatStart announcement={announcement} />;
  return (
    <MessageList
      key={conversationId}
      messages={messages}
      streaming={busy}
      initialScroll={store.scrollOf(conversationId)}
      focusId={focusId}
      onFocused={onFocused}
      onScrollMemo={onScrollMemo}
      modelNames={modelNames}
      onDelete={deleteMessage}
      rework={rework}
    />
  );
}
