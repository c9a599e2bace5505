import type { UseQueryResult } from '@tanstack/react-query';
import { Empty, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { QueryErrorResult } from './QueryErrorResult';

interface QueryTableProps<T> {
  /** The list's query: its rows, loading state and error. */
  list: UseQueryResult<T[]>;
  columns: ColumnsType<T>;
  /** What an empty list says. */
  emptyText: string;
  /** `<testId>-table`, and `<testId>-error` when the list could not be loaded. */
  testId: string;
}

/**
 * A short, unpaginated admin list read by one query: the table while there is data, the
 * error with a retry when the first load failed (a failed refetch keeps the rows shown).
 */
export function QueryTable<T extends { id: number | string }>({
  list,
  columns,
  emptyText,
  testId,
}: QueryTableProps<T>) {
  if (list.isError && !list.data)
    return <QueryErrorResult error={list.error} onRetry={() => void list.refetch()} testId={`${testId}-error`} />;
  return (
    <Table<T>
      rowKey="id"
      columns={columns}
      dataSource={list.data ?? []}
      loading={list.isLoading}
      pagination={false}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: <Empty description={emptyText} /> }}
      data-testid={`${testId}-table`}
    />
  );
}
