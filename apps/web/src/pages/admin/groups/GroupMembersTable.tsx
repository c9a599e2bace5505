import type { AdminUser, Group } from '@aiplatform/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Empty, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callPage } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { formatNumber } from '../../../components/common/format';
import { StatusTag } from '../shared/AdminTags';
import { RoleTag } from '../../../components/common/UserTags';
import { QueryErrorResult } from '../shared/QueryErrorResult';

const PAGE_SIZE = 10;

interface GroupMembersTableProps {
  group: Group;
  /**
   * Opens the transfer dialog with this member chosen; absent for those who may not move the
   * group's pool credits. Offered on the members whose abilities allow a transfer.
   */
  onTransfer?: (member: AdminUser) => void;
}

/** The group's members with their balances. */
export function GroupMembersTable({ group, onTransfer }: GroupMembersTableProps) {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const query = { page, limit: PAGE_SIZE, group_id: group.id, sort: 'username' };
  const members = useQuery({
    queryKey: adminKeys.userList(query),
    queryFn: () => callPage('listUsers', { query }),
    placeholderData: keepPreviousData,
  });
  if (members.isError && !members.data)
    return (
      <QueryErrorResult error={members.error} onRetry={() => void members.refetch()} testId="group-members-error" />
    );
  return (
    <Table<AdminUser>
      rowKey="id"
      size="small"
      dataSource={members.data?.items ?? []}
      loading={members.isFetching}
      scroll={{ x: 720 }}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('admin:groups.noMembers')} /> }}
      pagination={{
        current: page,
        pageSize: PAGE_SIZE,
        total: members.data?.pagination.total ?? 0,
        showSizeChanger: false,
        size: 'small',
        onChange: setPage,
      }}
      columns={[
        { key: 'username', title: t('admin:fields.username'), dataIndex: 'username', width: 140 },
        { key: 'email', title: t('admin:fields.email'), dataIndex: 'email', width: 200, ellipsis: true },
        { key: 'role', title: t('admin:fields.role'), width: 120, render: (_, user) => <RoleTag role={user.role} /> },
        {
          key: 'status',
          title: t('admin:fields.status'),
          width: 90,
          render: (_, user) => <StatusTag status={user.status} />,
        },
        {
          key: 'balance',
          title: t('admin:users.columns.credits'),
          width: 110,
          align: 'right',
          render: (_, user) => formatNumber(user.credits_stats.remaining, i18n.language),
        },
        ...(onTransfer
          ? [
              {
                key: 'actions',
                title: t('admin:users.columns.actions'),
                width: 120,
                render: (_: unknown, user: AdminUser) =>
                  user.abilities['pool.transfer'] && (
                    <Button
                      type="link"
                      size="small"
                      onClick={() => onTransfer(user)}
                      data-testid={`member-transfer-${user.id}`}
                    >
                      {t('admin:pool.transferShort')}
                    </Button>
                  ),
              },
            ]
          : []),
      ]}
      data-testid="group-members-table"
    />
  );
}
