import type { UserCreditsStats } from '@aiplatform/contracts';
import { WalletOutlined } from '@ant-design/icons';
import { Alert, Card, Col, Flex, Progress, Row, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUserCreditsStats } from '../../api/use-user-stats';
import { type CreditWarning, creditWarnings } from '../../components/common/credit-warnings';
import { formatDate, formatNumber } from '../../components/common/format';
import { GroupLabel } from '../../components/common/UserTags';
import { CardError, CardSkeleton } from './CardStates';

/** One alert per warning; expired is an error, the others are warnings. */
function WarningAlert({ warning }: { warning: CreditWarning }) {
  const { t, i18n } = useTranslation();
  if (warning.kind === 'expired')
    return <Alert type="error" showIcon title={t('dashboard:credits.expired')} data-testid="credits-expired" />;
  if (warning.kind === 'expiring')
    return (
      <Alert
        type="warning"
        showIcon
        title={
          warning.days === 0
            ? t('dashboard:credits.expiringToday')
            : t('dashboard:credits.expiringSoon', { days: warning.days ?? 0 })
        }
        data-testid="credits-expiring"
      />
    );
  return (
    <Alert
      type="warning"
      showIcon
      title={t('dashboard:credits.low', {
        remaining: formatNumber(warning.remaining, i18n.language),
        threshold: formatNumber(warning.threshold, i18n.language),
      })}
      data-testid="credits-low"
    />
  );
}

function CreditsBody({ stats }: { stats: UserCreditsStats }) {
  const { t, i18n } = useTranslation();
  const warnings = creditWarnings(stats);
  const expiry = stats.expire_at ? formatDate(stats.expire_at, i18n.language) : t('dashboard:credits.neverExpires');
  const usedPercent = stats.credits_total > 0 ? Math.round((stats.credits_used / stats.credits_total) * 100) : 0;

  return (
    <Flex vertical gap={16}>
      {warnings.map((warning) => (
        <WarningAlert key={warning.kind} warning={warning} />
      ))}
      <Row gutter={[16, 16]}>
        <Col xs={12}>
          <Statistic
            title={t('dashboard:credits.remaining')}
            value={stats.credits_remaining}
            data-testid="credits-remaining"
          />
        </Col>
        <Col xs={12}>
          <Statistic title={t('dashboard:credits.today')} value={stats.today_consumed} data-testid="credits-today" />
        </Col>
        <Col xs={12}>
          <Statistic title={t('dashboard:credits.total')} value={stats.credits_total} data-testid="credits-total" />
        </Col>
        <Col xs={12}>
          {/* A date or "never" is words, not a figure: a smaller size keeps it on one line beside the numbers. */}
          <Statistic
            title={t('dashboard:credits.expiry')}
            value={expiry}
            styles={{ content: { fontSize: 20 } }}
            data-testid="credits-expiry"
          />
        </Col>
      </Row>
      <div>
        <Typography.Text type="secondary">
          {t('dashboard:credits.usedOfTotal', {
            used: formatNumber(stats.credits_used, i18n.language),
            total: formatNumber(stats.credits_total, i18n.language),
          })}
        </Typography.Text>
        <Progress
          percent={Math.min(100, usedPercent)}
          status={stats.is_expired ? 'exception' : 'normal'}
          aria-label={t('dashboard:credits.usageRate')}
        />
      </div>
    </Flex>
  );
}

/** The credits centre: balance, today's use, quota and expiry, with what needs attention on top. */
export function CreditsCard() {
  const { t } = useTranslation();
  const query = useUserCreditsStats();
  const stats = query.data;

  return (
    <Card
      title={
        <span>
          <WalletOutlined /> {t('dashboard:credits.title')}
        </span>
      }
      extra={stats ? <GroupLabel name={stats.group_name} color={stats.group_color} /> : null}
      className="dashboard-card"
      data-testid="credits-card"
    >
      {stats ? (
        <CreditsBody stats={stats} />
      ) : query.isError ? (
        <CardError error={query.error} onRetry={() => void query.refetch()} testId="credits" />
      ) : (
        <CardSkeleton testId="credits" />
      )}
    </Card>
  );
}
