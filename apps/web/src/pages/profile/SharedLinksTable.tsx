import type { ShareLink } from '@aiplatform/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Popconfirm, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { call } from '../../api/call';
import { toast } from '../../api/notify';
import { formatDateTime, formatNumber } from '../../components/common/format';
import { shareStatus } from '../../components/sharing/share-links';

const SHARES_KEY = ['shares'] as const;

const STATUS_COLORS = { active: 'success', expired: 'default', revoked: 'error' } as const;

/** My share links: the conversation, when shared and until when, who can open, visits, and revoking. */
export function SharedLinksTable() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const client = useQueryClient();
  const query = useQuery({ queryKey: SHARES_KEY, queryFn: () => call('listShares') });

  const revoke = async (link: ShareLink) => {
    try {
      await call('revokeShare', { params: { id: link.id } });
      toast('success', t('share:list.revoked_toast'));
    } finally {
      await client.invalidateQueries({ queryKey: SHARES_KEY });
    }
  };

  const columns: ColumnsType<ShareLink> = [
    {
      key: 'title',
      title: t('share:list.conversation'),
      render: (_: unknown, link: ShareLink) => {
        const title = link.title || t('chat:conversation.untitled');
        return link.conversation_id ? (
          <Link to={`/chat?c=${encodeURIComponent(link.conversation_id)}`}>{title}</Link>
        ) : (
          title
        );
      },
    },
    {
      key: 'created',
      title: t('share:list.created'),
      dataIndex: 'created_at',
      render: (v: string) => formatDateTime(v, lang),
    },
    {
      key: 'expires',
      title: t('share:list.expires'),
      dataIndex: 'expires_at',
      render: (v: string | null) => (v ? formatDateTime(v, lang) : t('share:list.never')),
    },
    {
      key: 'public',
      title: t('share:list.visibility'),
      dataIndex: 'public',
      render: (v: boolean) => (v ? t('share:list.public') : t('share:list.members')),
    },
    {
      key: 'visits',
      title: t('share:list.visits'),
      dataIndex: 'visits',
      align: 'right',
      render: (v: number) => <span data-testid="share-visits">{formatNumber(v, lang)}</span>,
    },
    {
      key: 'status',
      title: t('share:list.status'),
      render: (_: unknown, link: ShareLink) => {
        const status = shareStatus(link, new Date());
        return (
          <Tag color={STATUS_COLORS[status]} data-testid="share-status" data-status={status}>
            {t(`share:list.${status}`)}
          </Tag>
        );
      },
    },
    {
      key: 'actions',
      title: '',
      render: (_: unknown, link: ShareLink) =>
        link.revoked ? null : (
          <Popconfirm
            title={t('share:list.revokeConfirm')}
            okText={t('share:list.revokeOk')}
            okButtonProps={{ danger: true, 'data-testid': 'share-revoke-confirm' }}
            cancelText={t('common:cancel')}
            onConfirm={() => revoke(link)}
          >
            <Button size="small" danger data-testid="share-revoke">
              {t('share:list.revoke')}
            </Button>
          </Popconfirm>
        ),
    },
  ];

  if (query.isError && !query.data) {
    return (
      <Alert
        type="error"
        showIcon
        title={t('share:list.loadFailed')}
        action={
          <Button size="small" onClick={() => void query.refetch()}>
            {t('common:retry')}
          </Button>
        }
      />
    );
  }

  return (
    <Table<ShareLink>
      rowKey="id"
      size="small"
      scroll={{ x: 720 }}
      columns={columns}
      dataSource={query.data ?? []}
      loading={query.isFetching}
      locale={{ emptyText: t('share:list.empty') }}
      pagination={{ pageSize: 10, showSizeChanger: false, hideOnSinglePage: true }}
      data-testid="shared-links-table"
    />
  );
}
