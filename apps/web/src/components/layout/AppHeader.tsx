import { MenuOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSiteBranding } from '../../api/use-public-config';
import { LanguageSwitch } from '../common/LanguageSwitch';
import { SiteLogo } from '../common/SiteLogo';
import ThemeSwitch from '../common/ThemeSwitch';
import { NotificationBell } from './NotificationBell';
import { UserMenu } from './UserMenu';

interface AppHeaderProps {
  isMobile: boolean;
  onOpenDrawer: () => void;
}

export function AppHeader({ isMobile, onOpenDrawer }: AppHeaderProps) {
  const { t } = useTranslation();
  const { name } = useSiteBranding();
  return (
    <header className="app-header">
      {isMobile && (
        <Button
          type="text"
          icon={<MenuOutlined />}
          onClick={onOpenDrawer}
          aria-label={t('layout:openMenu')}
          data-testid="drawer-toggle"
        />
      )}
      <Link to="/dashboard" className="app-header-brand" data-testid="header-brand">
        <SiteLogo size={32} />
        <span className="app-header-name" data-testid="site-name">
          {name}
        </span>
      </Link>
      <div className="app-header-actions">
        <LanguageSwitch />
        {/* On phones the header has no room: the theme choices sit in the user menu. */}
        {!isMobile && <ThemeSwitch />}
        <NotificationBell />
        <UserMenu compact={isMobile} />
      </div>
    </header>
  );
}
