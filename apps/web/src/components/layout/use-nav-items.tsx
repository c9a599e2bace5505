import {
  ApartmentOutlined,
  AuditOutlined,
  BookOutlined,
  BarChartOutlined,
  DashboardOutlined,
  FileTextOutlined,
  IdcardOutlined,
  LockOutlined,
  KeyOutlined,
  MessageOutlined,
  SettingOutlined,
  TeamOutlined,
  UserSwitchOutlined,
} from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import type { MenuProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchUserModules } from '../../api/modules';
import { queryKeys } from '../../api/query-keys';
import { useAbilities } from '../../stores/abilities';
import { moduleIcon } from './module-icons';

type MenuItem = NonNullable<MenuProps['items']>[number];

/** Where a menu key leads: an in-app path, or a module opened in a new tab (its URL is signed per click). */
export type NavTarget = { path: string } | { newTabModule: string };

/** The layout's menu: the pages the server's abilities for the session open. */
export function useNavItems(): { items: MenuItem[]; targets: Map<string, NavTarget> } {
  const { t } = useTranslation();
  const { pages } = useAbilities();
  const { data: modules = [] } = useQuery({ queryKey: queryKeys.userModules, queryFn: fetchUserModules });

  const targets = new Map<string, NavTarget>();
  const items: MenuItem[] = [];
  const addLink = (path: string, label: string, icon: ReactNode, testId: string) => {
    targets.set(path, { path });
    items.push({ key: path, icon, label, 'data-testid': testId });
  };

  addLink('/dashboard', t('layout:menu.dashboard'), <DashboardOutlined />, 'menu-dashboard');
  if (pages.chat) addLink('/chat', t('layout:menu.chat'), <MessageOutlined />, 'menu-chat');
  if (pages.chat) addLink('/knowledge', t('layout:menu.knowledge'), <BookOutlined />, 'menu-knowledge');
  if (pages.chat) addLink('/prompts', t('layout:menu.prompts'), <FileTextOutlined />, 'menu-prompts');
  for (const module of modules) {
    const key = `/module/${encodeURIComponent(module.name)}`;
    targets.set(key, module.open_mode === 'new_tab' ? { newTabModule: module.name } : { path: key });
    items.push({
      key,
      icon: moduleIcon(module.menu_icon, module.display_name, module.name),
      label: module.display_name,
      'data-testid': `menu-module-${module.name}`,
    });
  }

  // Each admin screen appears for whoever the server says may open it.
  const children: MenuItem[] = [];
  const addAdminLink = (path: string, label: string, icon: ReactNode, testId: string) => {
    targets.set(path, { path });
    children.push({ key: path, icon, label, 'data-testid': testId });
  };
  if (pages.users) addAdminLink('/admin/users', t('layout:menu.users'), <UserSwitchOutlined />, 'menu-admin-users');
  if (pages.groups) addAdminLink('/admin/groups', t('layout:menu.groups'), <ApartmentOutlined />, 'menu-admin-groups');
  if (pages.identity)
    addAdminLink('/admin/identity', t('layout:menu.identity'), <IdcardOutlined />, 'menu-admin-identity');
  if (pages.legalHolds)
    addAdminLink('/admin/legal-holds', t('layout:menu.legalHolds'), <LockOutlined />, 'menu-admin-legal-holds');
  if (pages.apiKeys) addAdminLink('/admin/api-keys', t('layout:menu.apiKeys'), <KeyOutlined />, 'menu-admin-api-keys');
  if (pages.audit) addAdminLink('/admin/audit', t('layout:menu.audit'), <AuditOutlined />, 'menu-admin-audit');
  if (pages.stats) addAdminLink('/admin/stats', t('layout:menu.stats'), <BarChartOutlined />, 'menu-admin-stats');
  if (pages.settings)
    addAdminLink('/admin/settings', t('layout:menu.settings'), <SettingOutlined />, 'menu-admin-settings');
  if (children.length > 0) {
    items.push({
      key: 'admin',
      icon: <TeamOutlined data-testid="menu-admin" />,
      label: t('layout:menu.admin'),
      children,
    });
  }
  return { items, targets };
}
