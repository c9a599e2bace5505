import type { Conversation } from '@aiplatform/contracts';
import { PushpinFilled } from '@ant-design/icons';
import { Tag, Tooltip } from 'antd';
import { memo, useEffect, useRef, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../common/format';
import { ConversationMenu, type ConversationMenuAction } from './ConversationMenu';
import { ConversationRename, type RenameOutcome } from './ConversationRename';

export interface ConversationItemHandlers {
  onSelect: (id: string) => void;
  onRename: (conversation: Conversation, title: string) => Promise<RenameOutcome>;
  onPin: (conversation: Conversation, pinned: boolean) => Promise<void>;
  onSettings: (conversation: Conversation) => void;
  onDelete: (conversation: Conversation) => void;
}

interface ConversationItemProps extends ConversationItemHandlers {
  conversation: Conversation;
  modelLabel: string;
  active: boolean;
  /** See ConversationMenu. */
  claimFocus: (id: string) => boolean;
}

/** A click that the browser should handle itself (new tab, new window, download). */
const opensElsewhere = (event: MouseEvent) =>
  event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;

/**
 * A sidebar row: one link that opens the conversation (pin and priority badges, title,
 * model, message count, last activity) and, beside it, the "more" button with rename,
 * pin, settings and delete. While renamed, the link gives way to a title box.
 */
export const ConversationItem = memo(function ConversationItem({
  conversation,
  modelLabel,
  active,
  claimFocus,
  ...handlers
}: ConversationItemProps) {
  const { t, i18n } = useTranslation();
  const [editing, setEditing] = useState(false);
  const link = useRef<HTMLAnchorElement>(null);
  // After a rename the focus goes back to the row, where the keyboard user left it.
  const refocus = useRef(false);
  const title = conversation.title || t('chat:conversation.untitled');
  const lastAt = conversation.last_message_at ?? conversation.updated_at;

  useEffect(() => {
    if (editing || !refocus.current) return;
    refocus.current = false;
    link.current?.focus();
  }, [editing]);

  const onAction = (action: ConversationMenuAction) => {
    if (action === 'rename') setEditing(true);
    else if (action === 'pin') void handlers.onPin(conversation, !conversation.is_pinned);
    else if (action === 'settings') handlers.onSettings(conversation);
    else handlers.onDelete(conversation);
  };

  return (
    <li className={`chat-conv-row${active ? ' is-active' : ''}`}>
      {editing ? (
        <ConversationRename
          title={conversation.title}
          shownTitle={title}
          onSave={(next) => handlers.onRename(conversation, next)}
          onDone={() => {
            refocus.current = true;
            setEditing(false);
          }}
        />
      ) : (
        <>
          <Link
            ref={link}
            to={{ search: `?c=${encodeURIComponent(conversation.id)}` }}
            className={`chat-conv-item${active ? ' is-active' : ''}`}
            aria-current={active ? 'page' : undefined}
            onClick={(event) => {
              if (opensElsewhere(event)) return;
              event.preventDefault();
              handlers.onSelect(conversation.id);
            }}
            data-testid="conversation-item"
            data-id={conversation.id}
          >
            <span className="chat-conv-title-row">
              {conversation.is_pinned && (
                <Tooltip title={t('chat:sidebar.pinned')}>
                  <PushpinFilled
                    className="chat-conv-pin"
                    aria-label={t('chat:sidebar.pinned')}
                    data-testid="conversation-pinned"
                  />
                </Tooltip>
              )}
              {conversation.priority > 0 && (
                <Tooltip title={t('chat:sidebar.priority', { n: conversation.priority })}>
                  <Tag color="orange" className="chat-conv-priority">
                    <span className="visually-hidden">{t('chat:form.priority')} </span>
                    <span data-testid="conversation-priority">{conversation.priority}</span>
                  </Tag>
                </Tooltip>
              )}
              <span className="chat-conv-title" title={title} data-testid="conversation-title">
                {title}
              </span>
            </span>
            <span className="chat-conv-meta">
              <span className="chat-conv-model">{modelLabel}</span>
              <span>{t('chat:sidebar.messageCount', { n: conversation.message_count })}</span>
            </span>
            <span className="chat-conv-time">{formatDateTime(lastAt, i18n.language)}</span>
          </Link>
          <ConversationMenu
            conversation={conversation}
            shownTitle={title}
            onAction={onAction}
            claimFocus={claimFocus}
          />
        </>
      )}
    </li>
  );
});
