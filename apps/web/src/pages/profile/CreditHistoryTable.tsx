import type { CreditHistoryEntry, TransactionType } from '@aiplatform/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { call } from '../../api/call';
import { queryKeys } from '../../api/query-keys';
import { formatDateTime, formatNumber } from '../../components/common/format';

/**
 * A ledger line's text (a chat charge or refund names its model's display name in it) and
 * the conversation, linked while the conversation exists.
 */
function LedgerDescription({ entry }: { entry: CreditHistoryEntry }) {
  const { t } = useTranslation();
  if (!entry.model_name && !entry.conversation_id) return <>{entry.description}</>;
  const conversation = entry.conversation_title ? (
    <Link to={`/chat?c=${encodeURIComponent(entry.conversation_id ?? '')}`} data-testid="ledger-conversation-link">
      {entry.conversation_title}
    </Link>
  ) : (
    <Typography.Text type="secondary">{t('profile:history.conversationDeleted')}</Typography.Text>
  );
  return (
    <span data-testid="ledger-chat-detail">
      {entry.description}
      {' · '}
      {conversation}
    </span>
  );
}

/** The profile shows ten entries a page. */
const PAGE_SIZE = 10;

const TYPE_LABEL_KEYS: Record<TransactionType, string> = {
  admin_add: 'profile:transaction.admin_add',
  admin_deduct: 'profile:transaction.admin_deduct',
  admin_set: 'profile:transaction.admin_set',
  chat_consume: 'profile:transaction.chat_consume',
  system_refund: 'profile:transaction.system_refund',
  system_reward: 'profile:transaction.system_reward',
  group_distribute: 'profile:transaction.group_distribute',
  group_reclaim: 'profile:transaction.group_reclaim',
  embedding: 'profile:transaction.embedding',
};

export function CreditHistoryTable() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: queryKeys.creditHistory(page, PAGE_SIZE),
    queryFn: () => call('myCreditHistory', { query: { page, limit: PAGE_SIZE } }),
    placeholderData: keepPreviousData,
  });

  const columns: ColumnsType<CreditHistoryEntry> = [
    {
      key: 'time',
      title: t('profile:history.time'),
      dataIndex: 'created_at',
      render: (v: string) => formatDateTime(v, lang),
    },
    {
      key: 'type',
      title: t('profile:history.type'),
      dataIndex: 'transaction_type',
      render: (v: TransactionType) => <Tag>{TYPE_LABEL_KEYS[v] ? t(TYPE_LABEL_KEYS[v]) : v}</Tag>,
    },
    {
      key: 'amount',
      title: t('profile:history.amount'),
      dataIndex: 'amount',
      align: 'right',
      render: (v: number) => (
        <Typography.Text
          type={v < 0 ? 'danger' : 'success'}
        >{`${v > 0 ? '+' : ''}${formatNumber(v, lang)}`}</Typography.Text>
      ),
    },
    {
      key: 'balance',
      title: t('profile:history.balance'),
      dataIndex: 'balance_after',
      align: 'right',
      render: (v: number) => formatNumber(v, lang),
    },
    {
      key: 'description',
      title: t('profile:history.description'),
      // Wraps rather than cutting off: a chat line names its model and conversation.
      render: (_: unknown, entry: CreditHistoryEntry) => <LedgerDescription entry={entry} />,
    },
  ];

  if (query.isError && !query.data) {
    return (
      <Alert
        type="error"
        showIcon
        title={t('profile:history.loadFailed')}
        action={
          <Button size="small" onClick={() => void query.refetch()}>
            {t('common:retry')}
          </Button>
        }
        data-testid="credit-history-error"
      />
    );
  }

  return (
    <Table<CreditHistoryEntry>
      rowKey="id"
      size="small"
      scroll={{ x: 640 }}
      columns={columns}
      dataSource={query.data?.history ?? []}
      loading={query.isFetching}
      pagination={{
        current: page,
        pageSize: PAGE_SIZE,
        total: query.data?.pagination.total ?? 0,
        showSizeChanger: false,
        onChange: setPage,
      }}
      data-testid="credit-history-table"
    />
  );
}
