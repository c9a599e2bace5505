import type { User } from '@aiplatform/contracts';
import { WalletOutlined } from '@ant-design/icons';
import { Alert, Card, Col, Progress, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../components/common/format';
import { GroupLabel } from '../admin/shared/AdminTags';

/** Days left at or below which the expiry warning shows. */
const EXPIRY_WARNING_DAYS = 7;

/** The credits centre: balance, quota, use and expiry of the signed-in user. */
export function CreditsCard({ user }: { user: User }) {
  const { t, i18n } = useTranslation();
  const stats = user.credits_stats;
  const expiringSoon = !stats.isExpired && stats.remainingDays !== null && stats.remainingDays <= EXPIRY_WARNING_DAYS;
  const expiry = stats.expireAt ? formatDate(stats.expireAt, i18n.language) : t('dashboard:credits.neverExpires');

  return (
    <Card
      title={
        <span>
          <WalletOutlined /> {t('dashboard:credits.title')}
        </span>
      }
      extra={<GroupLabel name={user.group_name} color={user.group_color} />}
      data-testid="credits-card"
    >
      {stats.isExpired && (
        <Alert
          type="error"
          showIcon
          title={t('dashboard:credits.expired')}
          style={{ marginBottom: 16 }}
          data-testid="credits-expired"
        />
      )}
      {expiringSoon && (
        <Alert
          type="warning"
          showIcon
          title={t('dashboard:credits.expiringSoon', { days: stats.remainingDays ?? 0 })}
          style={{ marginBottom: 16 }}
          data-testid="credits-expiring"
        />
      )}
      <Row gutter={[16, 16]}>
        <Col xs={12} md={6}>
          <Statistic title={t('dashboard:credits.remaining')} value={stats.remaining} data-testid="credits-remaining" />
        </Col>
        <Col xs={12} md={6}>
          <Statistic title={t('dashboard:credits.total')} value={stats.quota} />
        </Col>
        <Col xs={12} md={6}>
          <Statistic title={t('dashboard:credits.used')} value={stats.used} />
        </Col>
        <Col xs={12} md={6}>
          <Statistic title={t('dashboard:credits.expiry')} value={expiry} />
        </Col>
      </Row>
      <Progress
        percent={Math.min(100, stats.usageRate)}
        status={stats.isExpired ? 'exception' : 'normal'}
        style={{ marginTop: 16 }}
        aria-label={t('dashboard:credits.usageRate')}
      />
    </Card>
  );
}
