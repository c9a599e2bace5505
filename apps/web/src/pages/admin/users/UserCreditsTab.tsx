import type { AdminUser } from '@aiplatform/contracts';
import { Button, Card, Col, Row, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../components/common/format';
import { CreditLedgerTable } from './CreditLedgerTable';

interface UserCreditsTabProps {
  user: AdminUser;
  /** Present only for those who may add, deduct or set balances. */
  onAdjustCredits?: (user: AdminUser) => void;
}

/** Balance figures, the adjust button and the ledger. */
export function UserCreditsTab({ user, onAdjustCredits }: UserCreditsTabProps) {
  const { t, i18n } = useTranslation();
  const stats = user.credits_stats;
  const expiry = stats.expireAt ? formatDateTime(stats.expireAt, i18n.language) : t('admin:credits.noExpiry');
  return (
    <>
      <Card size="small" style={{ marginBottom: 16 }} data-testid="user-credit-stats">
        <Row gutter={[16, 16]}>
          <Col xs={12} sm={6}>
            <Statistic title={t('admin:credits.remaining')} value={stats.remaining} />
          </Col>
          <Col xs={12} sm={6}>
            <Statistic title={t('admin:credits.quota')} value={stats.quota} />
          </Col>
          <Col xs={12} sm={6}>
            <Statistic title={t('admin:credits.used')} value={stats.used} />
          </Col>
          <Col xs={12} sm={6}>
            <Statistic title={t('admin:credits.usageRate')} value={stats.usageRate} precision={1} suffix="%" />
          </Col>
        </Row>
        <Typography.Paragraph type={stats.isExpired ? 'danger' : 'secondary'} style={{ margin: '12px 0 0' }}>
          {stats.isExpired
            ? t('admin:credits.expired', { date: expiry })
            : t('admin:credits.expiryLine', { date: expiry })}
        </Typography.Paragraph>
        {onAdjustCredits && (
          <Button
            type="primary"
            style={{ marginTop: 12 }}
            onClick={() => onAdjustCredits(user)}
            data-testid="user-adjust-credits"
          >
            {t('admin:credits.adjust')}
          </Button>
        )}
      </Card>
      <CreditLedgerTable userId={user.id} />
    </>
  );
}
