import type { UserSession } from '@aiplatform/contracts';
import { Empty, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../components/common/format';
import { useFocusableTableScroll } from '../shared/use-focusable-scroll';

/** The devices signed in to the account right now. */
export function UserSessionsTable({ sessions }: { sessions: UserSession[] }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const scrollRef = useFocusableTableScroll(t('admin:sessions.title'));
  return (
    <div ref={scrollRef}>
      <Table<UserSession>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={sessions}
        scroll={{ x: 640 }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('admin:sessions.empty')} /> }}
        columns={[
          {
            key: 'created',
            title: t('admin:sessions.signedInAt'),
            dataIndex: 'created_at',
            width: 170,
            render: (v: string) => formatDateTime(v, lang),
          },
          {
            key: 'lastUsed',
            title: t('admin:sessions.lastUsedAt'),
            dataIndex: 'last_used_at',
            width: 170,
            render: (v: string) => formatDateTime(v, lang),
          },
          {
            key: 'ip',
            title: t('admin:sessions.ip'),
            dataIndex: 'ip',
            width: 130,
            render: (v: string | null) => v ?? '—',
          },
          {
            key: 'agent',
            title: t('admin:sessions.device'),
            dataIndex: 'user_agent',
            ellipsis: true,
            render: (v: string | null) => <Typography.Text type="secondary">{v ?? '—'}</Typography.Text>,
          },
        ]}
        data-testid="user-sessions"
      />
    </div>
  );
}
