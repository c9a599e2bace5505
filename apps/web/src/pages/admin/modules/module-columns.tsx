import type { AdminModule } from '@aiplatform/contracts';
import { Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { safeExternalUrl } from '../../../components/common/safe-url';
import { moduleIcon } from '../../../components/layout/module-icons';
import { activeColumn, groupsColumn } from '../catalog/catalog-columns';
import { ModuleActiveSwitch } from './ModuleActiveSwitch';
import { ModuleHealthCell } from './ModuleHealthCell';
import { AUTH_MODE_KEYS, OPEN_MODE_KEYS } from './module-labels';

interface ModuleColumnsInput {
  t: TFunction;
  isMobile: boolean;
  readOnly: boolean;
  groupNames: Map<number, string>;
  /** The row's buttons; absent in read-only mode. */
  actions?: (module: AdminModule) => ReactNode;
}

/** Columns of the module list, in menu order. */
export function moduleColumns({
  t,
  isMobile,
  readOnly,
  groupNames,
  actions,
}: ModuleColumnsInput): ColumnsType<AdminModule> {
  const columns: ColumnsType<AdminModule> = [
    {
      key: 'module',
      title: t('catalog:modules.columns.module'),
      width: 200,
      render: (_, module) => (
        <div>
          <Typography.Text strong>{module.display_name}</Typography.Text>
          <div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {module.name}
            </Typography.Text>
          </div>
        </div>
      ),
    },
    {
      key: 'icon',
      title: t('catalog:modules.columns.icon'),
      width: 70,
      align: 'center',
      render: (_, module) => (
        <span style={{ fontSize: 18 }}>{moduleIcon(module.menu_icon, module.display_name, module.name)}</span>
      ),
    },
    {
      key: 'url',
      title: t('catalog:modules.columns.url'),
      width: 240,
      render: (_, module) => {
        const href = safeExternalUrl(module.module_url);
        return href ? (
          <Typography.Link href={href} target="_blank" rel="noopener noreferrer" ellipsis style={{ maxWidth: 220 }}>
            {module.module_url}
          </Typography.Link>
        ) : (
          module.module_url
        );
      },
    },
    {
      key: 'openMode',
      title: t('catalog:modules.columns.openMode'),
      width: 110,
      render: (_, module) => t(OPEN_MODE_KEYS[module.open_mode]),
    },
    {
      key: 'authMode',
      title: t('catalog:modules.columns.authMode'),
      width: 120,
      render: (_, module) =>
        module.auth_mode === 'signed_token' ? (
          <Tag color="blue">{t(AUTH_MODE_KEYS[module.auth_mode])}</Tag>
        ) : (
          t(AUTH_MODE_KEYS[module.auth_mode])
        ),
    },
    groupsColumn(t, groupNames),
    {
      key: 'health',
      title: t('catalog:modules.columns.health'),
      width: 190,
      render: (_, module) => <ModuleHealthCell module={module} canCheck={!readOnly} />,
    },
    activeColumn(t, readOnly, (module) => <ModuleActiveSwitch module={module} />),
    {
      key: 'sort',
      title: t('catalog:modules.columns.sort'),
      dataIndex: 'sort_order',
      width: 80,
      align: 'right',
    },
  ];
  if (readOnly || !actions) return columns;
  return [
    ...columns,
    {
      key: 'actions',
      title: t('catalog:columns.actions'),
      width: 140,
      fixed: isMobile ? undefined : 'right',
      render: (_, module) => actions(module),
    },
  ];
}
