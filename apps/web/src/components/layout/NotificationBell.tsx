import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Popover } from 'antd';
import { useTranslation } from 'react-i18next';
import { useMarkNotificationRead, useNotifications } from '../../api/use-caps';
import { NotificationList } from './NotificationList';
import { useAnnouncementNotices } from './use-announcement-notices';
import { useCreditWarnings } from './use-credit-warnings';

/**
 * The header bell: warnings about the user's credits (low, expiring, expired), the budget
 * alerts the server keeps (usage caps, group pools) and the unread system and group
 * announcements. The badge counts all that is unread.
 */
export function NotificationBell() {
  const { t } = useTranslation();
  const notices = useAnnouncementNotices();
  const warnings = useCreditWarnings();
  const alerts = useNotifications();
  const markRead = useMarkNotificationRead();
  const count = notices.unread.length + warnings.length + (alerts.data?.unread ?? 0);
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      title={t('layout:notifications.title')}
      content={
        <NotificationList
          warnings={warnings}
          alerts={alerts.data?.items ?? []}
          onReadAlert={(id) => markRead.mutate(id)}
          readingAlert={markRead.isPending ? (markRead.variables ?? null) : null}
          {...notices}
        />
      }
    >
      <Badge count={count} size="small" data-testid="notification-count">
        <Button
          type="text"
          shape="circle"
          icon={<BellOutlined />}
          aria-label={count > 0 ? t('layout:notifications.labelUnread', { count }) : t('layout:notifications.label')}
          data-testid="notification-bell"
        />
      </Badge>
    </Popover>
  );
}
