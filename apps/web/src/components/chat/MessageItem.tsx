import { RobotOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Button } from 'antd';
import { memo, useCallback, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../common/format';
import { canContinue } from './answer-end';
import { MessageImages } from './MessageImages';
import { MessageCitations } from '../documents/MessageCitations';
import { MessageDocuments } from '../documents/MessageDocuments';
import { imagesOf } from '../documents/document-attachments';
import type { AnswerRework, ChatMessage } from './chat-message';
import { QuestionEditor } from './QuestionEditor';
import { MarkdownContent } from './MarkdownContent';
import { MessageActions } from './MessageActions';
import { useShownText } from './live-text';

interface MessageItemProps {
  message: ChatMessage;
  /** Model display names by model identifier. */
  modelLabel: string;
  onDelete: (message: ChatMessage) => void;
  rework: AnswerRework;
  /** The conversation's last message: only its answer can be regenerated or continued. */
  isLast: boolean;
  /** An answer is being produced in this conversation: nothing can be reworked meanwhile. */
  conversationBusy: boolean;
}

function TypingIndicator() {
  const { t } = useTranslation();
  return (
    <span className="chat-typing" aria-label={t('chat:message.thinking')} data-testid="message-typing">
      <i />
      <i />
      <i />
    </span>
  );
}

const AVATAR_STYLE = { background: 'var(--color-primary, #0958d9)' };

/** Drawn once per message, not again on every frame of a streamed answer. */
const MessageAvatar = memo(function MessageAvatar({ isUser }: { isUser: boolean }) {
  return (
    <Avatar
      className="chat-message-avatar"
      icon={isUser ? <UserOutlined /> : <RobotOutlined />}
      style={isUser ? undefined : AVATAR_STYLE}
    />
  );
});

/**
 * One message. Memoised on the message object: a finished message keeps its object, and
 * an answer being streamed follows its live text itself, so while it arrives only that
 * message renders again (and not its row of actions).
 */
export const MessageItem = memo(function MessageItem({
  message,
  modelLabel,
  onDelete,
  rework,
  isLast,
  conversationBusy,
}: MessageItemProps) {
  const { t, i18n } = useTranslation();
  const [editing, setEditing] = useState(false);
  // The actions read the message when clicked: their callbacks stay the same as it streams.
  const latest = useRef(message);
  useLayoutEffect(() => {
    latest.current = message;
  });
  const text = useShownText(message);
  const onCopy = useCallback(() => latest.current.content, []);
  const onEdit = useCallback(() => setEditing(true), []);
  const onRegenerate = useCallback(() => rework.regenerate(latest.current), [rework]);
  const onContinue = useCallback(() => rework.continueAnswer(), [rework]);
  const onDeleteMessage = useCallback(() => onDelete(latest.current), [onDelete]);
  const onShowVersion = useCallback((id: string) => void rework.showVersion(id), [rework]);
  const isUser = message.role === 'user';
  const busy = Boolean(message.temp || message.streaming);
  const reworkable = !busy && !conversationBusy && !message.failure;

  return (
    <div
      className={`chat-message chat-message-${message.role}`}
      data-testid="message-item"
      data-role={message.role}
      data-id={message.id}
      data-status={message.streaming ? 'streaming' : message.status}
    >
      <MessageAvatar isUser={isUser} />
      <div className="chat-message-body">
        <div className="chat-message-meta">
          <span>{isUser ? t('chat:message.user') : modelLabel || t('chat:message.assistant')}</span>
          <span>{formatDateTime(message.created_at, i18n.language)}</span>
        </div>
        <div className="chat-bubble">
          <MessageImages files={imagesOf(message.files)} />
          <MessageDocuments files={message.files} />
          {isUser && editing ? (
            <QuestionEditor
              initial={message.content}
              onCancel={() => setEditing(false)}
              onSend={(text) => {
                setEditing(false);
                rework.editQuestion(message, text);
              }}
            />
          ) : isUser ? (
            <div className="chat-user-text">{message.content}</div>
          ) : text ? (
            <MarkdownContent text={text} streaming={message.streaming} />
          ) : message.streaming ? (
            <TypingIndicator />
          ) : null}
          {!isUser && !message.streaming && <MessageCitations citations={message.citations} />}
          {message.status === 'stopped' && !message.streaming && (
            <div className="chat-stopped" data-testid="message-stopped">
              {t('chat:message.stoppedSuffix')}
            </div>
          )}
          {message.failure ? (
            <div className="chat-failure" role="alert" data-testid="message-failed">
              <span>
                {modelLabel
                  ? t('chat:message.failedWith', { reason: message.failure.message, model: modelLabel })
                  : message.failure.message}
              </span>
              <Button size="small" onClick={() => rework.retry(message)} data-testid="message-retry">
                {t('chat:message.retry')}
              </Button>
            </div>
          ) : (
            message.status === 'error' && (
              <div className="chat-stopped" data-testid="message-interrupted">
                {t('chat:message.interruptedSuffix')}
              </div>
            )
          )}
        </div>
        <MessageActions
          isUser={isUser}
          tokens={message.tokens}
          copyDisabled={Boolean(message.streaming) || !text}
          showEdit={isUser && reworkable && !editing}
          showRegenerate={!isUser && isLast && reworkable}
          showContinue={isLast && reworkable && canContinue(message)}
          deleteDisabled={busy || Boolean(message.failure)}
          messageId={message.id}
          versions={message.sibling_ids}
          versionsDisabled={busy || conversationBusy}
          onShowVersion={onShowVersion}
          onCopy={onCopy}
          onEdit={onEdit}
          onRegenerate={onRegenerate}
          onContinue={onContinue}
          onDelete={onDeleteMessage}
        />
      </div>
    </div>
  );
});
