import type { Conversation } from '@aiplatform/contracts';
import { DeleteOutlined, PushpinFilled, SettingOutlined } from '@ant-design/icons';
import { Button, Tag, Tooltip } from 'antd';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../common/format';

interface ConversationItemProps {
  conversation: Conversation;
  modelLabel: string;
  active: boolean;
  onSelect: (id: string) => void;
  onSettings: (conversation: Conversation) => void;
  onDelete: (conversation: Conversation) => void;
}

/** A sidebar row: pin/priority badge, title, model, message count, last activity, settings and delete. */
export const ConversationItem = memo(function ConversationItem({
  conversation,
  modelLabel,
  active,
  onSelect,
  onSettings,
  onDelete,
}: ConversationItemProps) {
  const { t, i18n } = useTranslation();
  const title = conversation.title || t('chat:conversation.untitled');
  const lastAt = conversation.last_message_at ?? conversation.updated_at;
  return (
    <div
      role="button"
      tabIndex={0}
      className={`chat-conv-item${active ? ' is-active' : ''}`}
      aria-current={active ? 'true' : undefined}
      onClick={() => onSelect(conversation.id)}
      onKeyDown={(event) => {
        if (event.target === event.currentTarget && (event.key === 'Enter' || event.key === ' ')) {
          event.preventDefault();
          onSelect(conversation.id);
        }
      }}
      data-testid="conversation-item"
      data-id={conversation.id}
    >
      <div className="chat-conv-title-row">
        {conversation.is_pinned && (
          <Tooltip title={t('chat:sidebar.pinned')}>
            <PushpinFilled className="chat-conv-pin" data-testid="conversation-pinned" />
          </Tooltip>
        )}
        {conversation.priority > 0 && (
          <Tooltip title={t('chat:sidebar.priority', { n: conversation.priority })}>
            <Tag color="orange" className="chat-conv-priority" data-testid="conversation-priority">
              {conversation.priority}
            </Tag>
          </Tooltip>
        )}
        <span className="chat-conv-title" title={title} data-testid="conversation-title">
          {title}
        </span>
      </div>
      <div className="chat-conv-meta">
        <span className="chat-conv-model">{modelLabel}</span>
        <span>{t('chat:sidebar.messageCount', { n: conversation.message_count })}</span>
      </div>
      <div className="chat-conv-footer">
        <span className="chat-conv-time">{formatDateTime(lastAt, i18n.language)}</span>
        <span className="chat-conv-actions">
          <Tooltip title={t('chat:sidebar.settings')}>
            <Button
              size="small"
              type="text"
              icon={<SettingOutlined />}
              aria-label={t('chat:sidebar.settings')}
              onClick={(event) => {
                event.stopPropagation();
                onSettings(conversation);
              }}
              data-testid="conversation-settings-button"
            />
          </Tooltip>
          <Tooltip title={t('chat:sidebar.delete')}>
            <Button
              size="small"
              type="text"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('chat:sidebar.delete')}
              onClick={(event) => {
                event.stopPropagation();
                onDelete(conversation);
              }}
              data-testid="conversation-delete-button"
            />
          </Tooltip>
        </span>
      </div>
    </div>
  );
});
