import type { Conversation } from '@aiplatform/contracts';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { groupConversations } from './conversation-groups';
import { ConversationItem, type ConversationItemHandlers } from './ConversationItem';
import './conversation-sidebar.css';

interface ConversationGroupsProps extends ConversationItemHandlers {
  conversations: Conversation[];
  selectedId: string | null;
  modelNames: ReadonlyMap<string, string>;
}

/** The start of today in the browser's time zone; changes at local midnight while the page stays open. */
function useToday(): Date {
  const [today, setToday] = useState(() => new Date());
  useEffect(() => {
    const next = new Date(today.getFullYear(), today.getMonth(), today.getDate() + 1);
    const timer = window.setTimeout(() => setToday(new Date()), next.getTime() - Date.now() + 1000);
    return () => window.clearTimeout(timer);
  }, [today]);
  return today;
}

/**
 * The conversations under their headings (pinned, today, yesterday, previous 7 days,
 * older): one heading and one list per non-empty group.
 */
export function ConversationGroups({
  conversations,
  selectedId,
  modelNames,
  onPin,
  ...handlers
}: ConversationGroupsProps) {
  const { t } = useTranslation();
  const idPrefix = useId();
  const today = useToday();
  const groups = useMemo(() => groupConversations(conversations, today), [conversations, today]);

  // Pinning moves a row to another list, where it is mounted anew; the focus follows it there.
  const moving = useRef<string | null>(null);
  const pin = useCallback(
    async (conversation: Conversation, pinned: boolean) => {
      moving.current = conversation.id;
      try {
        await onPin(conversation, pinned);
      } finally {
        // The list re-renders shortly after the answer; a row that did not move gives up the claim.
        window.setTimeout(() => {
          if (moving.current === conversation.id) moving.current = null;
        }, 1000);
      }
    },
    [onPin],
  );
  const claimFocus = useCallback((id: string) => {
    if (moving.current !== id) return false;
    moving.current = null;
    return true;
  }, []);

  return groups.map((group) => {
    const headingId = `${idPrefix}-${group.key}`;
    return (
      <div key={group.key} className="chat-conv-group" data-testid={`conversation-group-${group.key}`}>
        <h3 id={headingId} className="chat-conv-group-title">
          {t(`chat:sidebar.groups.${group.key}`)}
        </h3>
        <ul className="chat-conv-list" aria-labelledby={headingId}>
          {group.conversations.map((conversation) => (
            <ConversationItem
              key={conversation.id}
              conversation={conversation}
              modelLabel={modelNames.get(conversation.model_name) ?? conversation.model_name}
              active={conversation.id === selectedId}
              onPin={pin}
              claimFocus={claimFocus}
              {...handlers}
            />
          ))}
        </ul>
      </div>
    );
  });
}
