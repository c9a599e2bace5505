import { Empty, Space, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { permissionLabelKey } from './labels';

/** The user's permissions as tags; unknown (future or wildcard) permissions show their raw name. */
export function PermissionTags({ permissions }: { permissions: readonly string[] }) {
  const { t } = useTranslation();
  if (permissions.length === 0)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('common:permissionsEmpty')} />;
  return (
    <Space size={[8, 8]} wrap data-testid="permission-list">
      {permissions.map((permission) => {
        const key = permissionLabelKey(permission);
        return (
          <Tooltip key={permission} title={permission}>
            <Tag color="geekblue">{key ? t(key) : permission}</Tag>
          </Tooltip>
        );
      })}
    </Space>
  );
}
