import { DownOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { signOut } from '../../api/session';
import { useAuthStore } from '../../stores/auth-store';
import { setThemeMode, useThemeState } from '../../theme/theme-store';
import { safeUrl } from '../common/safe-url';
import { themeMenuItems, themeModeOfKey } from '../common/theme-menu';

/** Avatar and name; opens profile and logout, and on phones (no room in the header) the theme choices. */
export function UserMenu({ compact }: { compact: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useAuthStore((s) => s.user);
  const avatar = safeUrl(user?.avatar_url);
  const { mode } = useThemeState();

  const items: MenuProps['items'] = [
    { key: 'profile', icon: <UserOutlined />, label: t('layout:userMenu.profile'), 'data-testid': 'user-menu-profile' },
    { type: 'divider' },
    ...(compact
      ? [
          { type: 'group' as const, label: t('theme:title'), children: themeMenuItems(t, mode) },
          { type: 'divider' as const },
        ]
      : []),
    {
      key: 'logout',
      icon: <LogoutOutlined />,
      label: t('layout:userMenu.logout'),
      danger: true,
      'data-testid': 'user-menu-logout',
    },
  ];
  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'profile') void navigate('/profile');
    if (key === 'logout') void signOut();
    const theme = themeModeOfKey(key);
    if (theme) setThemeMode(theme);
  };

  return (
    <Dropdown menu={{ items, onClick }} trigger={['click']} placement="bottomRight">
      <button
        type="button"
        className="app-user-trigger"
        data-testid="user-menu"
        aria-label={t('layout:userMenu.label')}
      >
        <Avatar size="small" src={avatar || undefined} icon={avatar ? undefined : <UserOutlined />} />
        {!compact && <span>{user?.username}</span>}
        {!compact && <DownOutlined style={{ fontSize: 10 }} />}
      </button>
    </Dropdown>
  );
}
