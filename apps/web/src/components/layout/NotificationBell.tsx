import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Popover } from 'antd';
import { useTranslation } from 'react-i18next';
import { NotificationList } from './NotificationList';
import { useAnnouncementNotices } from './use-announcement-notices';
import { useCreditWarnings } from './use-credit-warnings';

/**
 * The header bell: warnings about the user's credits (low, expiring, expired) and the
 * unread system and group announcements. The badge counts both.
 */
export function NotificationBell() {
  const { t } = useTranslation();
  const notices = useAnnouncementNotices();
  const warnings = useCreditWarnings();
  const count = notices.unread.length + warnings.length;
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      title={t('layout:notifications.title')}
      content={<NotificationList warnings={warnings} {...notices} />}
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
