import type { UsageOverview } from '@aiplatform/contracts';
import { Card, Descriptions, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../components/common/format';
import { useFocusableTableScroll } from '../shared/use-focusable-scroll';

type KeyUsage = NonNullable<UsageOverview['api_keys']>[number];

function columns(t: TFunction, language: string): ColumnsType<KeyUsage> {
  const number = (value: number) => formatNumber(value, language);
  return [
    {
      key: 'key',
      dataIndex: 'key_name',
      title: t('stats:sources.key'),
      render: (name: string | null) => name ?? t('stats:sources.revoked'),
    },
    { key: 'user', dataIndex: 'username', title: t('stats:sources.user') },
    { key: 'requests', dataIndex: 'requests', title: t('stats:sources.requests'), align: 'right', render: number },
    { key: 'credits', dataIndex: 'credits', title: t('stats:sources.credits'), align: 'right', render: number },
    { key: 'tokens', dataIndex: 'tokens', title: t('stats:sources.tokens'), align: 'right', render: number },
  ];
}

/** Where the credits of the range went: the site's chat or personal API keys, and the keys that spent most. */
export function ApiUsageCard({ overview }: { overview: UsageOverview }) {
  const { t, i18n } = useTranslation();
  const title = t('stats:sources.title');
  const scrollRef = useFocusableTableScroll(t('stats:sources.keys'));
  const { sources, api_keys: keys = [] } = overview;
  if (!sources) return null;
  const number = (value: number) => formatNumber(value, i18n.language);
  return (
    <Card size="small" title={title} data-testid="stats-sources">
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 3 }}
        items={[
          { key: 'ui', label: t('stats:sources.ui'), children: number(sources.ui.credits) },
          { key: 'api', label: t('stats:sources.api'), children: number(sources.api.credits) },
          { key: 'requests', label: t('stats:sources.requests'), children: number(sources.api.requests) },
        ]}
      />
      {keys.length > 0 && (
        <div ref={scrollRef}>
          <Table<KeyUsage>
            rowKey="api_key_id"
            size="small"
            columns={columns(t, i18n.language)}
            dataSource={keys}
            pagination={false}
            scroll={{ x: 520 }}
            data-testid="stats-api-keys"
          />
        </div>
      )}
    </Card>
  );
}
