import type { AdminUser, AdminUserListQuery, Pagination } from '@aiplatform/contracts';
import { Empty, Table } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import { useTranslation } from 'react-i18next';
import { useInertMeasureRows } from '../shared/use-inert-measure-rows';
import { userColumns } from './user-columns';
import { toSortParam } from './user-list-query';

interface UsersTableProps {
  users: AdminUser[];
  pagination: Pagination | undefined;
  loading: boolean;
  query: AdminUserListQuery;
  onQueryChange: (change: Partial<AdminUserListQuery>) => void;
  selectedIds: number[];
  onSelectionChange: (ids: number[]) => void;
  isMobile: boolean;
  onOpenDetail: (user: AdminUser) => void;
  onAdjustCredits: (user: AdminUser) => void;
}

/** The user list: server-side pages and sorting, row selection for bulk actions. */
export function UsersTable({
  users,
  pagination,
  loading,
  query,
  onQueryChange,
  selectedIds,
  onSelectionChange,
  isMobile,
  onOpenDetail,
  onAdjustCredits,
}: UsersTableProps) {
  const { t, i18n } = useTranslation();
  const tableArea = useInertMeasureRows();
  const columns = userColumns({
    t,
    language: i18n.language,
    sort: query.sort,
    isMobile,
    onOpenDetail,
    onAdjustCredits,
  });
  return (
    <div ref={tableArea}>
      <Table<AdminUser>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={users}
        loading={loading}
        scroll={{ x: 1740 }}
        rowSelection={{
          selectedRowKeys: selectedIds,
          onChange: (keys) => onSelectionChange(keys.map(Number)),
          preserveSelectedRowKeys: true,
        }}
        locale={{ emptyText: <Empty description={t('admin:users.empty')} data-testid="users-empty" /> }}
        pagination={{
          current: query.page,
          pageSize: query.limit,
          total: pagination?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 50, 100],
          showTotal: (total) => t('admin:table.total', { count: total }),
          size: isMobile ? 'small' : 'medium',
        }}
        onChange={(page, _filters, sorter, extra) => {
          if (extra.action === 'sort') {
            const { columnKey, order } = sorter as SorterResult<AdminUser>;
            onQueryChange({ sort: toSortParam(columnKey, order), page: 1 });
          } else if (extra.action === 'paginate') {
            onQueryChange({ page: page.current ?? 1, limit: page.pageSize ?? query.limit });
          }
        }}
        data-testid="users-table"
      />
    </div>
  );
}
