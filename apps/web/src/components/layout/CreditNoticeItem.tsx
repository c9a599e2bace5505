import { ClockCircleOutlined, StopOutlined, WalletOutlined } from '@ant-design/icons';
import { Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { CreditWarning, CreditWarningKind } from '../common/credit-warnings';
import { formatNumber } from '../common/format';

const TITLE_KEY: Record<CreditWarningKind, string> = {
  expired: 'layout:notifications.credits.expiredTitle',
  expiring: 'layout:notifications.credits.expiringTitle',
  low: 'layout:notifications.credits.lowTitle',
};

const ICON: Record<CreditWarningKind, ReactNode> = {
  expired: <StopOutlined />,
  expiring: <ClockCircleOutlined />,
  low: <WalletOutlined />,
};

/** One credit warning in the bell; it leads to the dashboard's credits centre. */
export function CreditNoticeItem({ warning }: { warning: CreditWarning }) {
  const { t, i18n } = useTranslation();
  let text: string;
  if (warning.kind === 'expired') text = t('layout:notifications.credits.expiredText');
  else if (warning.kind === 'expiring')
    text =
      warning.days === 0
        ? t('layout:notifications.credits.expiringTodayText')
        : t('layout:notifications.credits.expiringText', { days: warning.days ?? 0 });
  else
    text = t('layout:notifications.credits.lowText', {
      remaining: formatNumber(warning.remaining, i18n.language),
      threshold: formatNumber(warning.threshold, i18n.language),
    });

  return (
    <li data-testid={`notice-credits-${warning.kind}`}>
      <Link to="/dashboard" className="notification-item">
        <Typography.Text strong>
          {/* Colour on the icon only: antd's warning text colour is too light to read on white. */}
          <span className={`notification-credit-icon is-${warning.kind}`}>{ICON[warning.kind]}</span>{' '}
          {t(TITLE_KEY[warning.kind])}
        </Typography.Text>
        <Typography.Text>{text}</Typography.Text>
      </Link>
    </li>
  );
}
