import type { Notification } from '@aiplatform/contracts';
import { AlertOutlined, FundOutlined } from '@ant-design/icons';
import { Button, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { capName, resetTimeText } from '../../api/cap-text';
import { formatDateTime, formatNumber } from '../common/format';

/** A cap alert's body in the reader's clock: the server's text carries the reset time as stored. */
function capAlertText(t: ReturnType<typeof useTranslation>['t'], n: Notification, language: string): string {
  const { period, model_name, used, limit, resets_at, subject_name } = n.data;
  if (
    (period !== 'day' && period !== 'week' && period !== 'month') ||
    typeof used !== 'number' ||
    typeof limit !== 'number' ||
    typeof resets_at !== 'string'
  )
    return n.body;
  return t('layout:notifications.capAlertText', {
    subject: typeof subject_name === 'string' ? subject_name : '',
    name: capName(t, period, typeof model_name === 'string' ? model_name : null),
    used: formatNumber(used, language),
    limit: formatNumber(limit, language),
    time: resetTimeText(resets_at, new Date(), language),
  });
}

interface ServerNoticeItemProps {
  notice: Notification;
  onRead: (id: number) => void;
  reading: boolean;
}

/** One notification the server keeps (a budget alert): unread ones are marked and can be marked read. */
export function ServerNoticeItem({ notice, onRead, reading }: ServerNoticeItemProps) {
  const { t, i18n } = useTranslation();
  const unread = notice.read_at === null;
  const body = notice.kind === 'cap_alert' ? capAlertText(t, notice, i18n.language) : notice.body;
  return (
    <li data-testid={`notice-${notice.kind}`} data-unread={unread ? 'true' : 'false'}>
      <div className={unread ? 'notification-item is-unread' : 'notification-item'}>
        <Typography.Text strong={unread}>
          <span className="notification-credit-icon">
            {notice.kind === 'pool_alert' ? <FundOutlined /> : <AlertOutlined />}
          </span>{' '}
          {notice.title}
        </Typography.Text>
        <Typography.Text>{body}</Typography.Text>
        <Flex justify="space-between" align="center" gap={8}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {formatDateTime(notice.created_at, i18n.language)}
          </Typography.Text>
          {unread && (
            <Button
              size="small"
              type="link"
              loading={reading}
              onClick={() => onRead(notice.id)}
              data-testid={`notice-read-${notice.id}`}
            >
              {t('layout:notifications.markRead')}
            </Button>
          )}
        </Flex>
      </div>
    </li>
  );
}
