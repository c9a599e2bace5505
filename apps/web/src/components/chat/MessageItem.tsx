import { CheckOutlined, CopyOutlined, DeleteOutlined, RobotOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Tooltip } from 'antd';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../common/format';
import { AuthImage } from './AuthImage';
import type { ChatMessage } from './chat-message';
import { MarkdownContent } from './MarkdownContent';
import { useCopyText } from './use-copy-text';

interface MessageItemProps {
  message: ChatMessage;
  /** Model display names by model identifier. */
  modelLabel: string;
  onDelete: (message: ChatMessage) => void;
  onRetry: (message: ChatMessage) => void;
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

/**
 * One message. Memoised on the message object: a finished message keeps its object,
 * so only the one being streamed re-renders while an answer arrives.
 */
export const MessageItem = memo(function MessageItem({ message, modelLabel, onDelete, onRetry }: MessageItemProps) {
  const { t, i18n } = useTranslation();
  const { copied, copy } = useCopyText('content');
  const isUser = message.role === 'user';
  const busy = Boolean(message.temp || message.streaming);

  return (
    <div
      className={`chat-message chat-message-${message.role}`}
      data-testid="message-item"
      data-role={message.role}
      data-id={message.id}
      data-status={message.streaming ? 'streaming' : message.status}
    >
      <Avatar
        className="chat-message-avatar"
        icon={isUser ? <UserOutlined /> : <RobotOutlined />}
        style={isUser ? undefined : { background: 'var(--color-primary, #1677ff)' }}
      />
      <div className="chat-message-body">
        <div className="chat-message-meta">
          <span>{isUser ? t('chat:message.user') : modelLabel || t('chat:message.assistant')}</span>
          <span>{formatDateTime(message.created_at, i18n.language)}</span>
        </div>
        <div className="chat-bubble">
          {message.file && (
            <AuthImage url={message.file.url} name={message.file.original_name} testId="message-image" />
          )}
          {isUser ? (
            <div className="chat-user-text">{message.content}</div>
          ) : message.content ? (
            <MarkdownContent text={message.content} streaming={message.streaming} />
          ) : message.streaming ? (
            <TypingIndicator />
          ) : null}
          {message.status === 'stopped' && !message.streaming && (
            <div className="chat-stopped" data-testid="message-stopped">
              {t('chat:message.stoppedSuffix')}
            </div>
          )}
          {message.failure ? (
            <div className="chat-failure" role="alert" data-testid="message-failed">
              <span>{message.failure.message}</span>
              <Button size="small" onClick={() => onRetry(message)} data-testid="message-retry">
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
        <div className="chat-message-actions">
          {!isUser && message.tokens > 0 && (
            <span className="chat-message-tokens" data-testid="message-tokens">
              {t('chat:message.tokens', { n: message.tokens })}
            </span>
          )}
          <Tooltip title={copied ? t('chat:message.copied') : t('chat:message.copy')}>
            <Button
              size="small"
              type="text"
              icon={copied ? <CheckOutlined /> : <CopyOutlined />}
              disabled={message.streaming || !message.content}
              onClick={() => void copy(message.content)}
              aria-label={t('chat:message.copy')}
              data-testid="message-copy"
            />
          </Tooltip>
          {!isUser && (
            <Tooltip title={t('chat:message.delete')}>
              <Button
                size="small"
                type="text"
                danger
                icon={<DeleteOutlined />}
                disabled={busy || Boolean(message.failure)}
                onClick={() => onDelete(message)}
                aria-label={t('chat:message.delete')}
                data-testid="message-delete"
              />
            </Tooltip>
          )}
        </div>
      </div>
    </div>
  );
});
