import type { UsageOverview } from '@aiplatform/contracts';
import { Card, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../components/common/format';
import { useFocusableTableScroll } from '../shared/use-focusable-scroll';

type TopUser = UsageOverview['top_users'][number];

function columns(t: TFunction, language: string): ColumnsType<TopUser> {
  const number = (value: number) => formatNumber(value, language);
  return [
    { key: 'rank', title: t('stats:topUsers.rank'), width: 72, render: (_value, _row, index) => index + 1 },
    // Usernames are at most 20 characters: shown whole, the table scrolls sideways on a phone.
    { key: 'user', dataIndex: 'username', title: t('stats:topUsers.user') },
    { key: 'messages', dataIndex: 'messages', title: t('stats:topUsers.messages'), align: 'right', render: number },
    { key: 'credits', dataIndex: 'credits', title: t('stats:topUsers.credits'), align: 'right', render: number },
    { key: 'tokens', dataIndex: 'tokens', title: t('stats:topUsers.tokens'), align: 'right', render: number },
  ];
}

/** The heaviest users of the range, by credits; the table scrolls sideways on a phone. */
export function TopUsersTable({ users }: { users: UsageOverview['top_users'] }) {
  const { t, i18n } = useTranslation();
  const title = t('stats:topUsers.title');
  const scrollRef = useFocusableTableScroll(title);
  return (
    <Card size="small" title={title}>
      <div ref={scrollRef}>
        <Table<TopUser>
          rowKey="user_id"
          size="small"
          columns={columns(t, i18n.language)}
          dataSource={users}
          pagination={false}
          scroll={{ x: 520 }}
          data-testid="stats-top-users"
        />
      </div>
    </Card>
  );
}
