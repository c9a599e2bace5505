import type { UsageOverview } from '@aiplatform/contracts';
import { Card, Col, Row, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../components/common/format';

type TotalKey = keyof UsageOverview['totals'];

const TOTALS: { key: TotalKey; label: string; hint?: string }[] = [
  { key: 'messages', label: 'stats:totals.messages', hint: 'stats:totals.messagesHint' },
  { key: 'credits', label: 'stats:totals.credits' },
  { key: 'tokens', label: 'stats:totals.tokens' },
  { key: 'active_users', label: 'stats:totals.activeUsers', hint: 'stats:totals.activeUsersHint' },
  { key: 'conversations', label: 'stats:totals.conversations' },
];

/** The range's sums, five to a row on wide screens and two on phones. */
export function StatsTotals({ totals }: { totals: UsageOverview['totals'] }) {
  const { t, i18n } = useTranslation();
  return (
    <Row gutter={[12, 12]}>
      {TOTALS.map(({ key, label, hint }) => (
        <Col key={key} xs={12} md={8} xl={{ flex: '20%' }}>
          <Card size="small" style={{ height: '100%' }}>
            <Statistic
              title={t(label)}
              value={formatNumber(totals[key], i18n.language)}
              data-testid={`stats-total-${key}`}
            />
            {hint && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t(hint)}
              </Typography.Text>
            )}
          </Card>
        </Col>
      ))}
    </Row>
  );
}
