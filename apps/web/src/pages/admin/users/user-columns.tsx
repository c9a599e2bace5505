import type { AdminUser } from '@aiplatform/contracts';
import { Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { formatDateTime, formatNumber } from '../../../components/common/format';
import { StatusTag } from '../shared/AdminTags';
import { GroupLabel, RoleTag } from '../../../components/common/UserTags';
import { UserRowActions } from './UserRowActions';
import { sortOrderOf } from './user-list-query';

interface UserColumnsInput {
  t: TFunction;
  language: string;
  sort: string;
  isMobile: boolean;
  onOpenDetail: (user: AdminUser) => void;
  onAdjustCredits: (user: AdminUser) => void;
}

/** Columns of the user list; sortable ones map to the server's sort fields by their key. */
export function userColumns({
  t,
  language,
  sort,
  isMobile,
  onOpenDetail,
  onAdjustCredits,
}: UserColumnsInput): ColumnsType<AdminUser> {
  return [
    {
      key: 'id',
      title: t('admin:users.columns.id'),
      dataIndex: 'id',
      width: 72,
      sorter: true,
      sortOrder: sortOrderOf(sort, 'id'),
    },
    {
      key: 'username',
      title: t('admin:users.columns.user'),
      width: 220,
      sorter: true,
      sortOrder: sortOrderOf(sort, 'username'),
      render: (_, user) => (
        <div>
          <Typography.Link onClick={() => onOpenDetail(user)}>{user.username}</Typography.Link>
          <div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {user.email}
            </Typography.Text>
          </div>
        </div>
      ),
    },
    {
      key: 'phone',
      title: t('admin:users.columns.phone'),
      dataIndex: 'phone',
      width: 130,
      render: (v: string | null) => v ?? '—',
    },
    {
      key: 'role',
      title: t('admin:users.columns.role'),
      dataIndex: 'role',
      width: 130,
      render: (_, user) => <RoleTag role={user.role} />,
    },
    {
      key: 'status',
      title: t('admin:users.columns.status'),
      dataIndex: 'status',
      width: 90,
      render: (_, user) => <StatusTag status={user.status} />,
    },
    {
      key: 'group',
      title: t('admin:users.columns.group'),
      width: 150,
      render: (_, user) => <GroupLabel name={user.group_name} color={user.group_color} />,
    },
    {
      key: 'credits_remaining',
      title: t('admin:users.columns.credits'),
      width: 130,
      align: 'right',
      sorter: true,
      sortOrder: sortOrderOf(sort, 'credits_remaining'),
      render: (_, user) => formatNumber(user.credits_stats.remaining, language),
    },
    {
      key: 'token_used',
      title: t('admin:users.columns.tokens'),
      width: 130,
      align: 'right',
      sorter: true,
      sortOrder: sortOrderOf(sort, 'token_used'),
      render: (_, user) => formatNumber(user.token_used, language),
    },
    {
      key: 'created_at',
      title: t('admin:users.columns.createdAt'),
      dataIndex: 'created_at',
      width: 170,
      sorter: true,
      sortOrder: sortOrderOf(sort, 'created_at'),
      render: (v: string) => formatDateTime(v, language),
    },
    {
      key: 'last_login_at',
      title: t('admin:users.columns.lastLogin'),
      dataIndex: 'last_login_at',
      width: 170,
      sorter: true,
      sortOrder: sortOrderOf(sort, 'last_login_at'),
      render: (v: string | null) => (v ? formatDateTime(v, language) : t('admin:users.neverSignedIn')),
    },
    {
      key: 'remark',
      title: t('admin:users.columns.remark'),
      dataIndex: 'remark',
      width: 160,
      ellipsis: true,
      render: (v: string | null) => v ?? '',
    },
    {
      key: 'actions',
      title: t('admin:users.columns.actions'),
      width: 270,
      // A fixed column would cover most of a phone screen, so it scrolls with the rest there.
      fixed: isMobile ? undefined : 'right',
      render: (_, user) => <UserRowActions user={user} onOpenDetail={onOpenDetail} onAdjustCredits={onAdjustCredits} />,
    },
  ];
}
