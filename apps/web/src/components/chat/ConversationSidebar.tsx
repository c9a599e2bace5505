import type { Conversation } from '@aiplatform/contracts';
import { PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Empty, Input, Spin } from 'antd';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConversationGroups } from './ConversationGroups';
import type { ConversationItemHandlers } from './ConversationItem';
import { MessageSearchResults } from './MessageSearchResults';
import { RetentionNote } from './RetentionNote';

interface ConversationSidebarProps extends ConversationItemHandlers {
  conversations: Conversation[] | undefined;
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
  selectedId: string | null;
  modelNames: ReadonlyMap<string, string>;
  onNew: () => void;
}

/**
 * The conversation list, filtered by title, under date headings (pinned first); inside a
 * group the server's order (priority, then latest).
 */
export function ConversationSidebar(props: ConversationSidebarProps) {
  const { conversations, loading, failed, onRetry, selectedId, modelNames } = props;
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const query = useDeferredValue(search.trim().toLowerCase());
  const untitled = t('chat:conversation.untitled');

  const visible = useMemo(() => {
    const list = conversations ?? [];
    if (!query) return list;
    return list.filter((c) => (c.title || untitled).toLowerCase().includes(query));
  }, [conversations, query, untitled]);

  let body;
  if (loading) body = <Spin className="chat-sidebar-spin" />;
  else if (failed)
    body = (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('chat:sidebar.loadFailed')}>
        <Button onClick={onRetry}>{t('chat:retry')}</Button>
      </Empty>
    );
  else if (visible.length === 0)
    body = (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={query ? t('chat:sidebar.noMatch') : t('chat:sidebar.empty')}
      />
    );
  else
    body = (
      <ConversationGroups
        conversations={visible}
        selectedId={selectedId}
        modelNames={modelNames}
        onSelect={props.onSelect}
        onRename={props.onRename}
        onPin={props.onPin}
        onSettings={props.onSettings}
        onDelete={props.onDelete}
      />
    );

  return (
    <div className="chat-sidebar-inner" data-testid="chat-sidebar">
      <h2 className="visually-hidden">{t('chat:sidebar.title')}</h2>
      <div className="chat-sidebar-top">
        <Button type="primary" block icon={<PlusOutlined />} onClick={props.onNew} data-testid="chat-new-button">
          {t('chat:sidebar.newChat')}
        </Button>
        <Input
          allowClear
          prefix={<SearchOutlined />}
          placeholder={t('chat:sidebar.search')}
          aria-label={t('chat:sidebar.search')}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          data-testid="chat-search"
        />
      </div>
      <div className="chat-sidebar-list">
        {body}
        <MessageSearchResults search={search} onOpen={props.onSelect} />
      </div>
      <RetentionNote />
    </div>
  );
}
