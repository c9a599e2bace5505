import { DownOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { signOut } from '../../api/session';
import { useAuthStore } from '../../stores/auth-store';
import { safeUrl } from '../common/safe-url';

/** Avatar and name; opens profile and logout. */
export function UserMenu({ compact }: { compact: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useAuthStore((s) => s.user);
  const avatar = safeUrl(user?.avatar_url);

  const items: MenuProps['items'] = [
    { key: 'profile', icon: <UserOutlined />, label: t('layout:userMenu.profile'), 'data-testid': 'user-menu-profile' },
    { type: 'divider' },
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
