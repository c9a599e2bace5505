import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { QueryClientProvider } from '@tanstack/react-query';
import { Button, Drawer, Layout } from 'antd';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { createQueryClient } from '../../api/query-client';
import { i18n } from '../../i18n';
import { registerAppResources } from '../../i18n/app-resources';
import { useAuthStore } from '../../stores/auth-store';
import { PageLoading } from '../common/PageLoading';
import { AppHeader } from './AppHeader';
import { NavMenu } from './NavMenu';
import { readNavExpanded, writeNavExpanded } from './nav-expanded';
import { MAIN_CONTENT_ID, SkipLink } from './SkipLink';
import { useIsMobile } from './use-is-mobile';
import { usePresenceHeartbeat } from './use-presence-heartbeat';

// Signed-in translations arrive with this chunk, before any signed-in screen renders.
registerAppResources(i18n);

const SIDER_WIDTH = 64;
const SIDER_EXPANDED_WIDTH = 208;

/** Header, an icon sidebar on desktop that expands to show labels (remembered), a drawer menu on phones. */
function LayoutFrame() {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [navExpanded, setNavExpanded] = useState(readNavExpanded);
  const toggleNav = () => {
    writeNavExpanded(!navExpanded);
    setNavExpanded(!navExpanded);
  };
  // Online presence lasts exactly as long as the signed-in frame is on screen.
  usePresenceHeartbeat();

  return (
    <Layout className="app-layout">
      <SkipLink />
      <AppHeader isMobile={isMobile} onOpenDrawer={() => setDrawerOpen(true)} />
      <Layout>
        {!isMobile && (
          <Layout.Sider
            className="app-sider"
            width={SIDER_EXPANDED_WIDTH}
            collapsedWidth={SIDER_WIDTH}
            collapsed={!navExpanded}
            theme="light"
            data-testid="app-sider"
          >
            <nav className="app-sider-inner" aria-label={t('layout:menuTitle')}>
              <NavMenu collapsed={!navExpanded} />
              <Button
                type="text"
                className="app-sider-toggle"
                icon={navExpanded ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
                onClick={toggleNav}
                aria-expanded={navExpanded}
                aria-label={t(navExpanded ? 'layout:collapseMenu' : 'layout:expandMenu')}
                title={t(navExpanded ? 'layout:collapseMenu' : 'layout:expandMenu')}
                data-testid="nav-toggle"
              />
            </nav>
          </Layout.Sider>
        )}
        <Layout.Content className="app-content" id={MAIN_CONTENT_ID} tabIndex={-1}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
      {isMobile && (
        <Drawer
          placement="left"
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          title={t('layout:menuTitle')}
          size={260}
          styles={{ body: { padding: 0 } }}
          data-testid="nav-drawer"
        >
          <NavMenu collapsed={false} onNavigate={() => setDrawerOpen(false)} />
        </Drawer>
      )}
    </Layout>
  );
}

/** Each signed-in user gets a fresh server-data cache; it is dropped when they sign out. */
function UserScope() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <LayoutFrame />
    </QueryClientProvider>
  );
}

/** The signed-in frame. Keyed by user, so switching accounts (e.g. from another tab) starts clean. */
export default function AppLayout() {
  const userId = useAuthStore((s) => s.user?.id);
  return <UserScope key={userId ?? 'anonymous'} />;
}
