import {
  CheckOutlined,
  CopyOutlined,
  DeleteOutlined,
  EditOutlined,
  ReloadOutlined,
  RobotOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Avatar, Button, Tooltip } from 'antd';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../common/format';
import { canContinue } from './answer-end';
import { MessageImages } from './MessageImages';
import type { AnswerRework, ChatMessage } from './chat-message';
import { QuestionEditor } from './QuestionEditor';
import { MarkdownContent } from './MarkdownContent';
import { useCopyText } from './use-copy-text';

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

/**
 * One message. Memoised on the message object: a finished message keeps its object,
 * so only the one being streamed re-renders while an answer arrives.
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
  const { copied, copy } = useCopyText('content');
  const [editing, setEditing] = useState(false);
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
      <Avatar
        className="chat-message-avatar"
        icon={isUser ? <UserOutlined /> : <RobotOutlined />}
        style={isUser ? undefined : { background: 'var(--color-primary, #0958d9)' }}
      />
      <div className="chat-message-body">
        <div className="chat-message-meta">
          <span>{isUser ? t('chat:message.user') : modelLabel || t('chat:message.assistant')}</span>
          <span>{formatDateTime(message.created_at, i18n.language)}</span>
        </div>
        <div className="chat-bubble">
          <MessageImages files={message.files} />
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
          {isUser && reworkable && !editing && (
            <Tooltip title={t('chat:message.edit')}>
              <Button
                size="small"
                type="text"
                icon={<EditOutlined />}
                onClick={() => setEditing(true)}
                aria-label={t('chat:message.edit')}
                data-testid="message-edit"
              />
            </Tooltip>
          )}
          {!isUser && isLast && reworkable && (
            <Tooltip title={t('chat:message.regenerate')}>
              <Button
                size="small"
                type="text"
                icon={<ReloadOutlined />}
                onClick={() => rework.regenerate(message)}
                aria-label={t('chat:message.regenerate')}
                data-testid="message-regenerate"
              />
            </Tooltip>
          )}
          {isLast && reworkable && canContinue(message) && (
            <Button size="small" onClick={() => rework.continueAnswer()} data-testid="message-continue">
              {t('chat:message.continue')}
            </Button>
          )}
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
