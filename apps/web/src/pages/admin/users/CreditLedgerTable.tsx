import { type CreditTransaction, TRANSACTION_TYPES, type TransactionType } from '@aiplatform/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Empty, Flex, Select, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callPage } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { formatDateTime, formatNumber } from '../../../components/common/format';
import { TransactionTypeTag } from '../shared/AdminTags';
import { QueryErrorResult } from '../shared/QueryErrorResult';
import { useFocusableTableScroll } from '../shared/use-focusable-scroll';
import { TRANSACTION_TYPE_KEYS } from '../shared/labels';

const PAGE_SIZE = 10;

/** A user's ledger, newest first, filterable by entry type, with who made each change and why. */
export function CreditLedgerTable({ userId }: { userId: number }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [page, setPage] = useState(1);
  const scrollRef = useFocusableTableScroll(t('admin:detail.tabCredits'));
  const [type, setType] = useState<TransactionType | undefined>(undefined);
  const query = { page, limit: PAGE_SIZE, type };
  const ledger = useQuery({
    queryKey: adminKeys.userCredits(userId, query),
    queryFn: () => callPage('creditHistory', { params: { id: userId }, query }),
    placeholderData: keepPreviousData,
  });

  const columns: ColumnsType<CreditTransaction> = [
    {
      key: 'time',
      title: t('admin:ledger.time'),
      dataIndex: 'created_at',
      width: 170,
      render: (v: string) => formatDateTime(v, lang),
    },
    {
      key: 'type',
      title: t('admin:ledger.type'),
      dataIndex: 'transaction_type',
      width: 150,
      render: (v: TransactionType) => <TransactionTypeTag type={v} />,
    },
    {
      key: 'amount',
      title: t('admin:ledger.amount'),
      dataIndex: 'amount',
      width: 110,
      align: 'right',
      render: (v: number) => (
        <Typography.Text
          type={v < 0 ? 'danger' : 'success'}
        >{`${v > 0 ? '+' : ''}${formatNumber(v, lang)}`}</Typography.Text>
      ),
    },
    {
      key: 'balance',
      title: t('admin:ledger.balanceAfter'),
      dataIndex: 'balance_after',
      width: 120,
      align: 'right',
      render: (v: number) => formatNumber(v, lang),
    },
    {
      key: 'operator',
      title: t('admin:ledger.operator'),
      dataIndex: 'operator_username',
      width: 120,
      render: (v: string | null) => v ?? t('admin:ledger.system'),
    },
    {
      key: 'reason',
      title: t('admin:ledger.reason'),
      width: 200,
      ellipsis: true,
      render: (_, row) => row.reason || row.description,
    },
  ];

  if (ledger.isError && !ledger.data)
    return <QueryErrorResult error={ledger.error} onRetry={() => void ledger.refetch()} testId="ledger-error" />;

  return (
    <>
      <Flex wrap gap={8} style={{ marginBottom: 12 }}>
        <Select<TransactionType>
          allowClear
          value={type}
          placeholder={t('admin:ledger.filterType')}
          aria-label={t('admin:ledger.type')}
          options={TRANSACTION_TYPES.map((value) => ({ value, label: t(TRANSACTION_TYPE_KEYS[value]) }))}
          onChange={(value) => {
            setType(value);
            setPage(1);
          }}
          style={{ width: 200 }}
          data-testid="ledger-type-filter"
        />
      </Flex>
      <div ref={scrollRef}>
        <Table<CreditTransaction>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={ledger.data?.items ?? []}
          loading={ledger.isFetching}
          scroll={{ x: 1050 }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('admin:ledger.empty')} /> }}
          pagination={{
            current: page,
            pageSize: PAGE_SIZE,
            total: ledger.data?.pagination.total ?? 0,
            showSizeChanger: false,
            size: 'small',
            onChange: setPage,
          }}
          data-testid="credit-ledger-table"
        />
      </div>
    </>
  );
}
