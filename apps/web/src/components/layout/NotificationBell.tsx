import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Popover } from 'antd';
import { useTranslation } from 'react-i18next';
import { NotificationList } from './NotificationList';
import { useAnnouncementNotices } from './use-announcement-notices';

/** The header bell: unread system and group announcements, with "mark all read". */
export function NotificationBell() {
  const { t } = useTranslation();
  const notices = useAnnouncementNotices();
  const count = notices.unread.length;
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      title={t('layout:notifications.title')}
      content={<NotificationList {...notices} />}
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
