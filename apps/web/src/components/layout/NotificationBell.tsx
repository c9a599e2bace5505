import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Empty, Popover } from 'antd';
import { useTranslation } from 'react-i18next';

/** The header bell. There is no notification service yet, so it honestly shows none. */
export function NotificationBell() {
  const { t } = useTranslation();
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      content={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('layout:notifications.empty')} />}
    >
      <Badge count={0} size="small">
        <Button
          type="text"
          shape="circle"
          icon={<BellOutlined />}
          aria-label={t('layout:notifications.label')}
          data-testid="notification-bell"
        />
      </Badge>
    </Popover>
  );
}
