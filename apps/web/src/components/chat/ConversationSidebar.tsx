import type { Conversation } from '@aiplatform/contracts';
import { PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Empty, Input, Spin } from 'antd';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConversationItem } from './ConversationItem';

interface ConversationSidebarProps {
  conversations: Conversation[] | undefined;
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
  selectedId: string | null;
  modelNames: ReadonlyMap<string, string>;
  onNew: () => void;
  onSelect: (id: string) => void;
  onSettings: (conversation: Conversation) => void;
  onDelete: (conversation: Conversation) => void;
}

/** The conversation list in the server's order (priority, then latest), filtered by title. */
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
    body = visible.map((conversation) => (
      <ConversationItem
        key={conversation.id}
        conversation={conversation}
        modelLabel={modelNames.get(conversation.model_name) ?? conversation.model_name}
        active={conversation.id === selectedId}
        onSelect={props.onSelect}
        onSettings={props.onSettings}
        onDelete={props.onDelete}
      />
    ));

  return (
    <div className="chat-sidebar-inner" data-testid="chat-sidebar">
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
      <div className="chat-sidebar-list" role="list" aria-label={t('chat:sidebar.title')}>
        {body}
      </div>
    </div>
  );
}
