import type { Notification } from '@aiplatform/contracts';
import { NotificationOutlined, TeamOutlined } from '@ant-design/icons';
import { Button, Empty, Flex, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { CreditWarning } from '../common/credit-warnings';
import { formatDateTime } from '../common/format';
import { type AnnouncementNotice, previewText } from './announcement-seen';
import { CreditNoticeItem } from './CreditNoticeItem';
import { ServerNoticeItem } from './ServerNoticeItem';
import './notifications.css';

interface NotificationListProps {
  /** Credit warnings: shown while they apply, never "read". */
  warnings: CreditWarning[];
  /** The server's notifications (budget alerts), newest first, read ones too. */
  alerts: Notification[];
  onReadAlert: (id: number) => void;
  /** The alert being marked read, if any. */
  readingAlert: number | null;
  unread: AnnouncementNotice[];
  isLoading: boolean;
  isError: boolean;
  markAllRead: () => void;
}

const TITLE_KEY = {
  system: 'layout:notifications.system',
  group: 'layout:notifications.group',
} as const;

/**
 * The bell's popover body: the credit warnings first (they ask for action), the budget
 * alerts (each marked read on its own), then the unread announcements with "mark all read"; loading, a failure or nothing new otherwise.
 */
export function NotificationList(props: NotificationListProps) {
  const { warnings, alerts, unread, isLoading, isError, markAllRead } = props;
  const { t, i18n } = useTranslation();
  if (isLoading && warnings.length === 0 && alerts.length === 0) {
    return (
      <Flex justify="center" style={{ padding: 16, width: 280 }}>
        <Spin aria-label={t('common:loading')} />
      </Flex>
    );
  }
  if (unread.length === 0 && warnings.length === 0 && alerts.length === 0) {
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={t(isError ? 'layout:notifications.loadFailed' : 'layout:notifications.empty')}
        style={{ width: 260 }}
        data-testid="notification-empty"
      />
    );
  }
  return (
    <div className="notification-list" data-testid="notification-list">
      <ul>
        {warnings.map((warning) => (
          <CreditNoticeItem key={warning.kind} warning={warning} />
        ))}
        {alerts.map((alert) => (
          <ServerNoticeItem
            key={alert.id}
            notice={alert}
            onRead={props.onReadAlert}
            reading={props.readingAlert === alert.id}
          />
        ))}
        {unread.map((notice) => (
          <li key={notice.kind} data-testid={`notification-${notice.kind}`}>
            <Link to="/dashboard" className="notification-item">
              <Typography.Text strong>
                {notice.kind === 'system' ? <NotificationOutlined /> : <TeamOutlined />} {t(TITLE_KEY[notice.kind])}
              </Typography.Text>
              <Typography.Paragraph ellipsis={{ rows: 2 }} style={{ margin: 0 }}>
                {previewText(notice.content)}
              </Typography.Paragraph>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {formatDateTime(notice.updatedAt, i18n.language)}
              </Typography.Text>
            </Link>
          </li>
        ))}
      </ul>
      {unread.length > 0 ? (
        <Flex justify="end">
          <Button size="small" type="link" onClick={markAllRead} data-testid="notification-mark-read">
            {t('layout:notifications.markAllRead')}
          </Button>
        </Flex>
      ) : (
        isError && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('layout:notifications.loadFailed')}
          </Typography.Text>
        )
      )}
    </div>
  );
}
